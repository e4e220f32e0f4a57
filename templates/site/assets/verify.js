// The verification page: it takes the log (fetched from this judge, a
// file, or pasted text), hands it to the verifier worker and shows its
// progress and its verdict. Everything runs in this browser.
const form = document.getElementById("verify");
const progress = document.getElementById("progress");
const bar = progress.querySelector("progress");
const barText = progress.querySelector("span");
const result = document.getElementById("result");
let worker = null;

function show(state, headline, text) {
	result.hidden = false;
	result.className = "result " + (state === "ok" ? "ok" : "bad");
	result.dataset.state = state;
	result.querySelector("h2").textContent = headline;
	result.querySelector("pre").textContent = text;
}

async function source(kind) {
	if (kind === "fetch") {
		const resp = await fetch(form.dataset.log, { credentials: "omit", cache: "no-store" });
		if (!resp.ok) throw new Error("the judge answered " + resp.status + " for " + form.dataset.log);
		return { bytes: await resp.arrayBuffer(), name: form.dataset.name };
	}
	const file = form.elements.file.files[0];
	if (file) return { bytes: await file.arrayBuffer(), name: file.name };
	const text = form.elements.paste.value;
	if (text.trim() !== "") return { bytes: new TextEncoder().encode(text).buffer, name: "the pasted log" };
	return null;
}

form.addEventListener("submit", async (ev) => {
	ev.preventDefault();
	const kind = ev.submitter && ev.submitter.value === "fetch" ? "fetch" : "own";
	let src;
	try {
		src = await source(kind);
	} catch (e) {
		show("unreadable", "The log could not be read", String(e.message || e));
		return;
	}
	if (src === null) {
		show("unreadable", "No log given", "Choose a log file or paste a log first.");
		return;
	}
	if (worker) worker.terminate();
	worker = new Worker(form.dataset.worker);
	result.hidden = true;
	delete result.dataset.state;
	progress.hidden = false;
	bar.removeAttribute("value");
	barText.textContent = "reading " + src.name;
	const head = form.elements.head.value.trim().toLowerCase();
	const salt = form.elements.salt.value.trim();
	worker.onmessage = (m) => {
		const d = m.data;
		if (d.type === "progress") {
			bar.max = d.total;
			bar.value = d.done;
			barText.textContent = Math.floor(100 * d.done / Math.max(d.total, 1)) + "% checked";
			return;
		}
		progress.hidden = true;
		result.dataset.ms = d.ms;
		show(d.state, d.headline, d.text);
		worker.terminate();
		worker = null;
	};
	worker.onerror = (e) => {
		progress.hidden = true;
		show("unreadable", "The verifier could not run", String(e.message || e));
	};
	worker.postMessage({ bytes: src.bytes, name: src.name, head, salt }, [src.bytes]);
});
