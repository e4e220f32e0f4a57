// copy.js: the copy buttons of a game's page. A button with data-copy
// puts that text (the dice log head, all 64 hex digits) on the clipboard.
// Without script the buttons stay hidden and the text is there to select.
"use strict";

for (const button of document.querySelectorAll("button[data-copy]")) {
	const label = button.textContent;
	button.hidden = false;
	button.addEventListener("click", async () => {
		try {
			await navigator.clipboard.writeText(button.dataset.copy);
			button.textContent = "Copied";
		} catch {
			button.textContent = "Cannot copy here: select the head and copy it";
		}
		setTimeout(() => { button.textContent = label; }, 3000);
	});
}
