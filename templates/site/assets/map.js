// map.js: the map of a game's or a step's page. The wheel, a drag, or two
// fingers zoom and pan it (its viewBox); a click or a tap on a hex or a
// space opens its stack, each unit with its values; hovering (or focusing)
// a line of the events marks the hexes, spaces and units it names. It reads
// the map's unpainted layer of places (data-places, and a box per unit with
// data-unit and its values). Without script the list of stacks under the
// map says the same.
"use strict";

const NS = "http://www.w3.org/2000/svg";

for (const svg of document.querySelectorAll("figure.map svg")) {
	const layer = svg.querySelector("g.places");
	if (!layer) {
		continue;
	}
	const full = svg.viewBox.baseVal;
	const home = { x: full.x, y: full.y, w: full.width, h: full.height };
	const view = { ...home };
	const reach = Number(layer.dataset.r) || 24;
	const places = new Map();
	for (const entry of (layer.dataset.places || "").split(";")) {
		const f = entry.split(" ");
		if (f.length >= 3) {
			places.set(f.slice(0, -2).join(" "), { x: Number(f[f.length - 2]), y: Number(f[f.length - 1]) });
		}
	}
	const units = [...layer.querySelectorAll("rect[data-unit]")];
	const placeOf = (u) => u.dataset.hex || u.dataset.space;
	const figure = svg.closest("figure");
	figure.classList.add("zoomable");
	svg.style.touchAction = "none";

	const show = () => svg.setAttribute("viewBox", `${view.x} ${view.y} ${view.w} ${view.h}`);
	// at is the point of the picture under the client point.
	const at = (cx, cy) => {
		const p = svg.createSVGPoint();
		p.x = cx;
		p.y = cy;
		return p.matrixTransform(svg.getScreenCTM().inverse());
	};
	const zoom = (factor, cx, cy) => {
		const p = at(cx, cy);
		const w = Math.min(home.w, Math.max(home.w / 12, view.w / factor));
		const k = w / view.w;
		view.x = p.x - (p.x - view.x) * k;
		view.y = p.y - (p.y - view.y) * k;
		view.w = w;
		view.h = view.h * k;
		show();
	};

	// the zoom buttons, shown only with script
	const bar = document.createElement("div");
	bar.className = "mapzoom";
	for (const [label, act] of [["+", () => centreZoom(1.5)], ["−", () => centreZoom(1 / 1.5)], ["Whole map", () => { Object.assign(view, home); show(); }]]) {
		const b = document.createElement("button");
		b.type = "button";
		b.className = "button alt";
		b.textContent = label;
		b.addEventListener("click", act);
		bar.append(b);
	}
	figure.prepend(bar);
	const centreZoom = (f) => {
		const r = svg.getBoundingClientRect();
		zoom(f, r.left + r.width / 2, r.top + r.height / 2);
	};

	svg.addEventListener("wheel", (e) => {
		e.preventDefault();
		zoom(Math.exp(-e.deltaY / 300), e.clientX, e.clientY);
	}, { passive: false });

	// drags and pinches, by pointers
	const down = new Map();
	let moved = false;
	let pinch = 0;
	svg.addEventListener("pointerdown", (e) => {
		down.set(e.pointerId, { x: e.clientX, y: e.clientY });
		svg.setPointerCapture(e.pointerId);
		moved = false;
		if (down.size === 2) {
			const [a, b] = [...down.values()];
			pinch = Math.hypot(a.x - b.x, a.y - b.y);
		}
	});
	svg.addEventListener("pointermove", (e) => {
		const last = down.get(e.pointerId);
		if (!last) {
			return;
		}
		const dx = e.clientX - last.x, dy = e.clientY - last.y;
		if (Math.abs(dx) + Math.abs(dy) > 3) {
			moved = true;
		}
		down.set(e.pointerId, { x: e.clientX, y: e.clientY });
		if (down.size === 1 && moved) {
			const scale = view.w / svg.getBoundingClientRect().width;
			view.x -= dx * scale;
			view.y -= dy * scale;
			show();
		} else if (down.size === 2) {
			const [a, b] = [...down.values()];
			const d = Math.hypot(a.x - b.x, a.y - b.y);
			if (pinch > 0 && d > 0) {
				zoom(d / pinch, (a.x + b.x) / 2, (a.y + b.y) / 2);
			}
			pinch = d;
		}
	});
	const up = (e) => {
		const was = down.has(e.pointerId) && down.size === 1 && !moved;
		down.delete(e.pointerId);
		if (down.size < 2) {
			pinch = 0;
		}
		if (was && e.type === "pointerup") {
			open(e);
		}
	};
	svg.addEventListener("pointerup", up);
	svg.addEventListener("pointercancel", up);

	// the stack box
	const box = document.createElement("div");
	box.className = "stackbox";
	box.hidden = true;
	box.setAttribute("role", "dialog");
	figure.append(box);
	document.addEventListener("keydown", (e) => { if (e.key === "Escape") box.hidden = true; });
	const open = (e) => {
		let place = e.target instanceof Element && e.target.matches("rect[data-unit]") ? placeOf(e.target) : null;
		if (!place) {
			const p = at(e.clientX, e.clientY);
			let best = Infinity;
			for (const [id, c] of places) {
				const d = Math.hypot(c.x - p.x, c.y - p.y);
				if (d < best && d <= reach * 1.2) {
					best = d;
					place = id;
				}
			}
		}
		if (!place) {
			box.hidden = true;
			return;
		}
		const here = units.filter((u) => placeOf(u) === place);
		box.replaceChildren();
		const head = document.createElement("h3");
		head.textContent = place;
		const close = document.createElement("button");
		close.type = "button";
		close.className = "close";
		close.textContent = "×";
		close.setAttribute("aria-label", "Close");
		close.addEventListener("click", () => { box.hidden = true; });
		head.append(close);
		box.append(head);
		if (here.length === 0) {
			const p = document.createElement("p");
			p.textContent = "No units.";
			box.append(p);
		} else {
			const table = document.createElement("table");
			table.innerHTML = "<thead><tr><th>Unit</th><th>Side</th><th>Type</th><th>Strength</th><th>Status</th></tr></thead>";
			const body = document.createElement("tbody");
			for (const u of here) {
				const tr = document.createElement("tr");
				tr.dataset.unit = u.dataset.unit;
				for (const v of [u.dataset.unit, u.dataset.side, u.dataset.type, u.dataset.strength, u.dataset.markers]) {
					const td = document.createElement("td");
					td.textContent = v || "";
					tr.append(td);
				}
				body.append(tr);
			}
			table.append(body);
			box.append(table);
		}
		const fr = figure.getBoundingClientRect();
		box.style.left = Math.max(0, Math.min(e.clientX - fr.left + 8, fr.width - 260)) + "px";
		box.style.top = (e.clientY - fr.top + 8) + "px";
		box.hidden = false;
	};

	// the marks of a hovered line of events
	const marks = document.createElementNS(NS, "g");
	marks.setAttribute("class", "marks");
	marks.setAttribute("pointer-events", "none");
	svg.append(marks);
	const mark = (li) => {
		for (const id of (li.dataset.places || "").split("|")) {
			const c = places.get(id);
			if (c) {
				const ring = document.createElementNS(NS, "circle");
				ring.setAttribute("cx", c.x);
				ring.setAttribute("cy", c.y);
				ring.setAttribute("r", reach);
				ring.dataset.mark = id;
				marks.append(ring);
			}
		}
		const named = new Set((li.dataset.units || "").split("|"));
		for (const u of units) {
			if (named.has(u.dataset.unit)) {
				u.classList.add("marked");
			}
		}
		li.classList.add("marking");
	};
	const unmark = (li) => {
		marks.replaceChildren();
		for (const u of units) {
			u.classList.remove("marked");
		}
		li.classList.remove("marking");
	};
	for (const li of document.querySelectorAll("ol.events li[data-places], ol.events li[data-units]")) {
		li.tabIndex = 0;
		li.addEventListener("mouseenter", () => mark(li));
		li.addEventListener("mouseleave", () => unmark(li));
		li.addEventListener("focus", () => mark(li));
		li.addEventListener("blur", () => unmark(li));
	}
}
