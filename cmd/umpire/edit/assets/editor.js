// umpire edit: the page. It holds the document (the map file's contents,
// and the counter file's), paints it over the scan, sends it to the
// editor's server to be checked by the judge's own reader after every
// change, and saves it. No hex arithmetic is done here: the server sends
// each hex's centre and neighbours in the board's unit layout.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const st = {
    doc: null, format: "", geo: null, check: null, undo: [], redo: [],
    tool: "", road: null, selected: null, linkFrom: null, align: [], mark: [],
    scan: null, width: 1000, height: 800, timer: 0, seq: 0,
  };
  const hexTools = [["align", "Align the grid"], ["terrain", "Terrain"], ["area", "Area"], ["side", "Hexside"],
    ["road", "Road"], ["place", "Place"], ["set", "Hex set"], ["sideset", "Side set"]];
  const netTools = [["space", "Space"], ["move", "Move a space"], ["link", "Road"]];
  const kinds = {
    terrain: ["clear", "mountain", "forest", "swamp", "sea", "city", "rough"], side: ["river", "ridge"],
    road: ["road", "highway", "railroad"], place: ["city", "capital", "town", "port"],
  };

  // ---- geometry ----
  const al = () => st.doc.hex.scan || { x0: 40, y0: 40, sx: 24, sy: 24 };
  function centre(id) {
    if (st.format === "network") {
      const s = st.doc.network.spaces.find((s) => sid(s) === id);
      return s ? { x: s.x, y: s.y } : null;
    }
    const h = st.geo && st.geo.byID[id];
    if (!h) return null;
    const a = al();
    return { x: a.x0 + a.sx * h.x, y: a.y0 + a.sy * h.y };
  }
  function corners(id) {
    const h = st.geo.byID[id], a = al(), out = [];
    for (let i = 0; i < 6; i++) {
      let t = Math.PI / 3 * i;
      if (st.geo.orientation === "pointy-top") t -= Math.PI / 6;
      out.push({ x: a.x0 + a.sx * (h.x + Math.cos(t)), y: a.y0 + a.sy * (h.y + Math.sin(t)) });
    }
    return out;
  }
  function hexAt(p) {
    let best = null, bd = Infinity;
    for (const h of (st.geo ? st.geo.hexes : [])) {
      const c = centre(h.id), d = (c.x - p.x) ** 2 + (c.y - p.y) ** 2;
      if (d < bd) { bd = d; best = h; }
    }
    const a = al();
    return best && bd < (1.2 * Math.max(a.sx, a.sy)) ** 2 ? best : null;
  }
  function sideAt(p) {
    const h = hexAt(p);
    if (!h) return null;
    let best = null, bd = Infinity;
    const c = centre(h.id);
    for (const n of h.n) {
      const m = centre(n), mx = (c.x + m.x) / 2, my = (c.y + m.y) / 2, d = (mx - p.x) ** 2 + (my - p.y) ** 2;
      if (d < bd) { bd = d; best = n; }
    }
    return best ? sideName(h.id, best) : null;
  }
  function sideName(a, b) {
    const ia = st.geo.index[a], ib = st.geo.index[b];
    return ia < ib ? a + "/" + b : b + "/" + a;
  }
  const sid = (s) => s.id || s.name;
  function spaceAt(p) {
    let best = null, bd = 18 * 18;
    for (const s of st.doc.network.spaces) {
      const d = (s.x - p.x) ** 2 + (s.y - p.y) ** 2;
      if (d < bd) { bd = d; best = s; }
    }
    return best;
  }

  // ---- changes, undo, redo ----
  function change(f) {
    st.undo.push(JSON.stringify(st.doc));
    if (st.undo.length > 300) st.undo.shift();
    st.redo = [];
    f();
    changed();
  }
  function changed() { draw(); forms(); schedule(); }
  function undo() { if (st.undo.length) { st.redo.push(JSON.stringify(st.doc)); st.doc = JSON.parse(st.undo.pop()); changed(); } }
  function redo() { if (st.redo.length) { st.undo.push(JSON.stringify(st.doc)); st.doc = JSON.parse(st.redo.pop()); changed(); } }

  // ---- the server ----
  async function api(path, body) {
    const r = await fetch(path, body === undefined ? {} : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    if (!r.ok) throw new Error(await r.text());
    return r.json();
  }
  function schedule() {
    clearTimeout(st.timer);
    $("status").textContent = "checking…";
    st.timer = setTimeout(runCheck, 250);
  }
  async function runCheck() {
    const seq = ++st.seq;
    try {
      const res = await api("/api/check", st.doc);
      if (seq === st.seq) showCheck(res);
    } catch (e) { $("status").textContent = String(e); }
  }
  async function save() {
    clearTimeout(st.timer);
    $("status").textContent = "saving…";
    try {
      const res = await api("/api/save", st.doc);
      showCheck(res.check);
      $("status").textContent = "saved " + res.saved.join(", ") + " at " + res.at + (res.check.ok ? "" : " (the judge refuses it yet)");
      $("status").dataset.saved = res.at;
    } catch (e) { $("status").textContent = "not saved: " + e.message; }
  }
  function showCheck(res) {
    st.check = res;
    if (res.geometry) setGeometry(res.geometry);
    const ul = $("problems");
    ul.textContent = "";
    st.mark = [];
    if (res.ok) {
      const li = document.createElement("li");
      li.className = "ok";
      li.textContent = "The judge accepts these files: create would load them.";
      ul.append(li);
    }
    for (const p of res.problems || []) {
      const li = document.createElement("li");
      li.textContent = p.message;
      li.addEventListener("click", () => { st.mark = p.where || []; draw(); });
      ul.append(li);
      st.mark = st.mark.concat(p.where || []);
    }
    $("status").textContent = res.ok ? "accepted" : "refused: see the judge's check";
    $("status").dataset.ok = res.ok ? "yes" : "no";
    if (res.svg) {
      const old = $("judge").src;
      $("judge").src = URL.createObjectURL(new Blob([res.svg], { type: "image/svg+xml" }));
      if (old.startsWith("blob:")) URL.revokeObjectURL(old);
      fitJudge(res.svg_places);
    }
    markRows(res.problems || []);
    draw();
  }
  // fitJudge lays the judge's drawing over the scan: two places far apart,
  // where the judge draws them and where they are on the scan.
  function fitJudge(places) {
    const ids = Object.keys(places || {}).filter((id) => centre(id));
    if (ids.length < 2) return;
    let a = ids[0], b = ids[0], far = -1;
    for (const id of ids) {
      const q = places[id], d = Math.abs(q[0] - places[a][0]) + Math.abs(q[1] - places[a][1]);
      if (d > far) { far = d; b = id; }
    }
    const pa = centre(a), pb = centre(b), qa = places[a], qb = places[b];
    let kx = qb[0] !== qa[0] ? (pb.x - pa.x) / (qb[0] - qa[0]) : 0;
    let ky = qb[1] !== qa[1] ? (pb.y - pa.y) / (qb[1] - qa[1]) : 0;
    if (!kx) kx = ky || 1;
    if (!ky) ky = kx;
    $("judge").style.transform = `matrix(${kx},0,0,${ky},${pa.x - kx * qa[0]},${pa.y - ky * qa[1]})`;
  }
  function setGeometry(geo) {
    geo.byID = {};
    geo.index = {};
    geo.hexes.forEach((h, i) => { geo.byID[h.id] = h; geo.index[h.id] = i; });
    st.geo = geo;
    size();
  }
  function size() {
    let w = st.scan ? st.scan.width : 0, h = st.scan ? st.scan.height : 0;
    if (st.format === "network") {
      w = Math.max(w, st.doc.network.width || 0); h = Math.max(h, st.doc.network.height || 0);
    } else if (st.geo) {
      for (const x of st.geo.hexes) { const c = centre(x.id); w = Math.max(w, c.x + 40); h = Math.max(h, c.y + 40); }
    }
    const cv = $("paint");
    if (cv.width !== Math.ceil(w) || cv.height !== Math.ceil(h)) { cv.width = Math.ceil(w); cv.height = Math.ceil(h); }
    $("stack").style.width = cv.width + "px";
    $("stack").style.height = cv.height + "px";
  }

  // ---- drawing ----
  const palette = {};
  const tints = ["#c9b38b", "#7fae6d", "#6b8fc7", "#b07ab5", "#d9a05b", "#8ad0c6", "#d47272", "#a0a0a0"];
  function colour(k) { if (!(k in palette)) palette[k] = tints[Object.keys(palette).length % tints.length]; return palette[k]; }
  function draw() {
    size();
    const cv = $("paint"), g = cv.getContext("2d");
    g.clearRect(0, 0, cv.width, cv.height);
    if (st.format === "network") drawNet(g); else drawHex(g);
  }
  function poly(g, pts) { g.beginPath(); pts.forEach((p, i) => i ? g.lineTo(p.x, p.y) : g.moveTo(p.x, p.y)); g.closePath(); }
  function edge(id) {
    const [a, b] = id.split("/"), ca = centre(a), cb = centre(b);
    if (!ca || !cb) return null;
    const mx = (ca.x + cb.x) / 2, my = (ca.y + cb.y) / 2, dx = cb.x - ca.x, dy = cb.y - ca.y, l = Math.hypot(dx, dy) * 1.73;
    return [{ x: mx + dy / l, y: my - dx / l }, { x: mx - dy / l, y: my + dx / l }];
  }
  function drawHex(g) {
    const h = st.doc.hex;
    if (!st.geo) return;
    g.lineWidth = 1;
    for (const x of st.geo.hexes) {
      poly(g, corners(x.id));
      const t = h.terrain[x.id];
      if (t) { g.fillStyle = colour(t); g.fill(); }
      g.strokeStyle = h.area[x.id] ? colour("area:" + h.area[x.id]) : "rgba(0,0,0,.35)";
      g.lineWidth = h.area[x.id] ? 3 : 1;
      g.stroke();
    }
    const sets = (st.tool === "set" && h.sets[$("name").value]) || [];
    for (const id of sets) { poly(g, corners(id)); g.strokeStyle = "#e0007a"; g.lineWidth = 3; g.stroke(); }
    for (const s of h.sides) {
      const e = edge(s.side);
      if (!e) continue;
      g.strokeStyle = s.kind === "river" ? "#1565c0" : s.kind === "ridge" ? "#6d4c2f" : "#333";
      g.lineWidth = 4;
      g.beginPath(); g.moveTo(e[0].x, e[0].y); g.lineTo(e[1].x, e[1].y); g.stroke();
    }
    for (const r of h.roads.concat(st.road ? [st.road] : [])) {
      g.strokeStyle = r.kind === "railroad" ? "#111" : r.kind === "highway" ? "#c62828" : "#e0a100";
      g.lineWidth = r === st.road ? 5 : 3;
      g.setLineDash(r.kind === "railroad" ? [6, 4] : []);
      g.beginPath();
      r.path.forEach((id, i) => { const c = centre(id); if (c) i ? g.lineTo(c.x, c.y) : g.moveTo(c.x, c.y); });
      g.stroke();
      g.setLineDash([]);
    }
    g.font = "11px sans-serif";
    g.textAlign = "center";
    for (const p of h.places) {
      const c = centre(p.hex);
      if (!c) continue;
      g.fillStyle = p.kind === "capital" ? "#b71c1c" : "#000";
      g.fillRect(c.x - 4, c.y - 4, 8, 8);
      g.fillText(p.name || p.kind, c.x, c.y + 16);
    }
    for (const id of st.mark) {
      g.strokeStyle = "#ff0000"; g.lineWidth = 4;
      if (id.includes("/")) { const e = edge(id); if (e) { g.beginPath(); g.moveTo(e[0].x, e[0].y); g.lineTo(e[1].x, e[1].y); g.stroke(); } } else if (st.geo.byID[id]) { poly(g, corners(id)); g.stroke(); }
    }
    st.align.forEach((p) => { g.fillStyle = "#ff00ff"; g.fillRect(p.x - 3, p.y - 3, 6, 6); });
  }
  function drawNet(g) {
    const n = st.doc.network;
    g.font = "12px sans-serif";
    g.textAlign = "center";
    for (const r of n.roads) {
      const a = centre(r.a), b = centre(r.b);
      if (!a || !b) continue;
      g.strokeStyle = r.river ? "#1565c0" : "#7a4b22"; g.lineWidth = 3;
      g.beginPath(); g.moveTo(a.x, a.y); g.lineTo(b.x, b.y); g.stroke();
    }
    for (const s of n.spaces) {
      g.beginPath(); g.arc(s.x, s.y, s.key ? 10 : 7, 0, 2 * Math.PI);
      g.fillStyle = s.designation ? "#999" : colour("region:" + s.region); g.fill();
      g.strokeStyle = st.mark.includes(sid(s)) ? "#ff0000" : s === st.selected || sid(s) === st.linkFrom ? "#e0007a" : "#222";
      g.lineWidth = st.mark.includes(sid(s)) || s === st.selected ? 4 : 1.5;
      g.stroke();
      g.fillStyle = "#000"; g.fillText(s.name, s.x, s.y + 22);
    }
  }

  // ---- tools ----
  function point(ev) {
    const r = $("paint").getBoundingClientRect();
    return { x: (ev.clientX - r.left) * $("paint").width / r.width, y: (ev.clientY - r.top) * $("paint").height / r.height };
  }
  function click(ev) {
    const p = point(ev), kind = $("kind").value.trim(), name = $("name").value.trim();
    if (st.format === "network") return netClick(p, kind, name);
    const h = st.doc.hex;
    switch (st.tool) {
      case "align": return alignClick(p);
      case "terrain": case "area": {
        const x = hexAt(p);
        if (!x) return;
        const table = st.tool === "terrain" ? h.terrain : h.area, v = st.tool === "terrain" ? (kind || h.default_terrain) : name;
        return change(() => {
          const ids = $("fill").checked ? patch(x.id, table) : [x.id];
          for (const id of ids) { if (!v || (st.tool === "terrain" && v === h.default_terrain)) delete table[id]; else table[id] = v; }
        });
      }
      case "side": case "sideset": {
        const s = sideAt(p);
        if (!s) return;
        return change(() => {
          if (st.tool === "side") {
            const i = h.sides.findIndex((x) => x.side === s && x.kind === (kind || "river"));
            if (i >= 0) h.sides.splice(i, 1); else h.sides.push({ kind: kind || "river", side: s });
          } else if (name) toggle(h.side_sets, name, s);
        });
      }
      case "road": {
        const x = hexAt(p);
        if (!x) return;
        if (!st.road) st.road = { kind: kind || "road", path: [] };
        if (st.road.path[st.road.path.length - 1] !== x.id) st.road.path.push(x.id);
        return draw();
      }
      case "place": {
        const x = hexAt(p);
        if (!x) return;
        return change(() => {
          const i = h.places.findIndex((pl) => pl.hex === x.id);
          if (i >= 0) h.places.splice(i, 1); else h.places.push({ hex: x.id, kind: kind || "city", name: name });
        });
      }
      case "set": {
        const x = hexAt(p);
        if (x && name) change(() => toggle(h.sets, name, x.id));
      }
    }
  }
  function toggle(sets, name, id) {
    const l = sets[name] || (sets[name] = []), i = l.indexOf(id);
    if (i >= 0) l.splice(i, 1); else l.push(id);
  }
  // patch is the hexes reached from id through neighbours of the same value.
  function patch(id, table) {
    const v = table[id], seen = new Set([id]), todo = [id];
    while (todo.length) {
      const x = todo.pop();
      for (const n of st.geo.byID[x].n) if (!seen.has(n) && table[n] === v) { seen.add(n); todo.push(n); }
    }
    return [...seen];
  }
  function endRoad() {
    const r = st.road;
    st.road = null;
    if (r && r.path.length >= 2) change(() => st.doc.hex.roads.push(r)); else draw();
  }
  // alignClick: the first click is the first hex's centre on the scan, the
  // second the centre of the hex named in Name (the last hex by default).
  function alignClick(p) {
    st.align.push(p);
    if (st.align.length < 2) { $("hint").textContent = "Now click the centre of hex " + ($("name").value || st.doc.hex.grid.last) + "."; return draw(); }
    const [a, b] = st.align, other = st.geo.byID[$("name").value.trim() || st.doc.hex.grid.last], first = st.geo.hexes[0];
    st.align = [];
    if (!other || other === first) { $("hint").textContent = "Name a hex other than the first."; return draw(); }
    const dx = other.x - first.x, dy = other.y - first.y;
    let sx = dx ? (b.x - a.x) / dx : 0, sy = dy ? (b.y - a.y) / dy : 0;
    if (sx <= 0) sx = sy; if (sy <= 0) sy = sx;
    if (!(sx > 0)) { $("hint").textContent = "The two centres do not fit the grid: try again."; return draw(); }
    $("hint").textContent = "Aligned.";
    change(() => { st.doc.hex.scan = { x0: a.x - sx * first.x, y0: a.y - sy * first.y, sx: sx, sy: sy }; });
  }
  function netClick(p, kind, name) {
    const n = st.doc.network, s = spaceAt(p);
    switch (st.tool) {
      case "space":
        if (s) { st.selected = s; return changed(); }
        if (!name) { $("hint").textContent = "Give the new space a name first."; return; }
        return change(() => {
          const sp = { id: "", name: name, x: Math.round(p.x), y: Math.round(p.y), terrain: kind || "clear", key: false, region: (n.regions[0] || {}).id || "", designation: "", control: "", setup: null, insert: "" };
          n.spaces.push(sp);
          st.selected = sp;
        });
      case "move":
        if (st.selected && !s) return change(() => { const x = n.spaces.find((x) => sid(x) === sid(st.selected)); x.x = Math.round(p.x); x.y = Math.round(p.y); st.selected = x; });
        st.selected = s; return draw();
      case "link":
        if (!s) return;
        if (!st.linkFrom) { st.linkFrom = sid(s); return draw(); }
        const a = st.linkFrom, b = sid(s);
        st.linkFrom = null;
        if (a === b) return draw();
        return change(() => {
          const i = n.roads.findIndex((r) => (r.a === a && r.b === b) || (r.a === b && r.b === a));
          if (i >= 0) n.roads.splice(i, 1); else n.roads.push({ a: a, b: b, river: $("river").checked });
        });
    }
  }

  // ---- forms ----
  function field(parent, label, value, set, type) {
    const l = document.createElement("label"), i = document.createElement("input");
    l.textContent = label + " ";
    if (type === "checkbox") { i.type = "checkbox"; i.checked = !!value; } else { i.type = type || "text"; i.value = value == null ? "" : value; }
    i.addEventListener("change", () => change(() => set(type === "checkbox" ? i.checked : type === "number" ? Number(i.value) : i.value)));
    l.append(i);
    parent.append(l);
    return i;
  }
  function forms() {
    const f = $("docfields");
    f.querySelectorAll("label").forEach((x) => x.remove());
    const d = st.format === "network" ? st.doc.network : st.doc.hex;
    field(f, "Title", d.title, (v) => { d.title = v; });
    field(f, "Stand-in", d.stand_in, (v) => { d.stand_in = v; }, "checkbox");
    field(f, "Notice", d.notice, (v) => { d.notice = v; });
    if (st.format === "network") {
      field(f, "Width", d.width, (v) => { d.width = v; }, "number");
      field(f, "Height", d.height, (v) => { d.height = v; }, "number");
      spaceForm(); regionForm();
    } else {
      for (const k of ["orientation", "ids", "up", "first", "last"]) field(f, "Grid " + k, d.grid[k], (v) => { d.grid[k] = v; }).id = "grid-" + k;
      field(f, "Default terrain", d.default_terrain, (v) => { d.default_terrain = v; });
      setList();
    }
    if (st.doc.counters) counterTables();
  }
  function spaceForm() {
    const box = $("spaceform");
    box.textContent = "";
    const s = st.selected && st.doc.network.spaces.find((x) => sid(x) === sid(st.selected));
    if (!s) { box.textContent = "Click a space with the Space tool."; return; }
    for (const k of ["id", "name", "x", "y", "terrain", "region", "designation", "control", "insert"]) {
      field(box, k, s[k], (v) => { s[k] = v; }, k === "x" || k === "y" ? "number" : "text");
    }
    field(box, "key", s.key, (v) => { s.key = v; }, "checkbox");
    field(box, "setup (comma-separated)", (s.setup || []).join(", "), (v) => { s.setup = v.split(",").map((x) => x.trim()).filter((x) => x); });
    const del = document.createElement("button");
    del.textContent = "Delete this space";
    del.addEventListener("click", () => change(() => {
      const n = st.doc.network, id = sid(s);
      n.spaces = n.spaces.filter((x) => x !== s);
      n.roads = n.roads.filter((r) => r.a !== id && r.b !== id);
      st.selected = null;
    }));
    box.append(del);
  }
  function regionForm() {
    const box = $("regions"), n = st.doc.network;
    box.textContent = "";
    n.regions.forEach((r, i) => {
      const d = document.createElement("details");
      const sm = document.createElement("summary");
      sm.textContent = r.name || r.id || "(new region)";
      d.append(sm);
      for (const k of ["id", "name", "control"]) field(d, k, r[k], (v) => { r[k] = v; });
      for (const k of ["control_value", "points"]) field(d, k, r[k], (v) => { r[k] = v; }, "number");
      field(d, "key_for (comma-separated)", (r.key_for || []).join(", "), (v) => { r.key_for = v.split(",").map((x) => x.trim()).filter((x) => x); });
      field(d, "choose_2p", r.choose_2p, (v) => { r.choose_2p = v; }, "checkbox");
      const del = document.createElement("button");
      del.textContent = "Delete region";
      del.addEventListener("click", () => change(() => n.regions.splice(i, 1)));
      d.append(del);
      box.append(d);
    });
    const add = document.createElement("button");
    add.textContent = "Add a region";
    add.addEventListener("click", () => change(() => n.regions.push({ id: "", name: "New region", control_value: 1, points: 0, key_for: null, control: "", choose_2p: false })));
    box.append(add);
  }
  function setList() {
    const box = $("sets"), h = st.doc.hex;
    box.textContent = "";
    for (const [label, sets] of [["hexes", h.sets], ["hexsides", h.side_sets]]) {
      for (const k of Object.keys(sets).sort()) {
        const p = document.createElement("p");
        p.textContent = `${k} (${label}): ${sets[k].join(" ")}`;
        const del = document.createElement("button");
        del.textContent = "Delete";
        del.addEventListener("click", () => change(() => { delete sets[k]; }));
        p.append(" ", del);
        box.append(p);
      }
    }
    const hint = document.createElement("p");
    hint.textContent = "Name a set (Name) and click hexes with the Hex set tool, or hexsides with the Side set tool.";
    box.append(hint);
  }
  function counterTables() {
    $("counters").hidden = false;
    const box = $("countertables"), c = st.doc.counters;
    box.textContent = "";
    const vals = document.createElement("div");
    (c.values || []).forEach((v) => field(vals, v.key, v.text, (x) => { v.text = x; }));
    box.append(vals);
    (c.tables || []).forEach((t, ti) => {
      const h = document.createElement("h3");
      h.textContent = `[[${t.name}]] (${t.rows.length})`;
      const tb = document.createElement("table");
      tb.dataset.table = t.name;
      const head = tb.insertRow();
      t.columns.forEach((col) => { const th = document.createElement("th"); th.textContent = col.key; head.append(th); });
      head.append(document.createElement("th"));
      t.rows.forEach((row, ri) => {
        const tr = tb.insertRow();
        tr.dataset.row = ri;
        t.columns.forEach((col, ci) => {
          const i = document.createElement("input");
          i.value = row[ci] || "";
          i.setAttribute("aria-label", `${t.name} ${ri + 1} ${col.key}`);
          i.addEventListener("change", () => change(() => { row[ci] = i.value; }));
          tr.insertCell().append(i);
        });
        const del = document.createElement("button");
        del.textContent = "×";
        del.title = "Delete this row";
        del.addEventListener("click", () => change(() => t.rows.splice(ri, 1)));
        tr.insertCell().append(del);
      });
      const add = document.createElement("button");
      add.textContent = "Add a " + t.name;
      add.addEventListener("click", () => change(() => t.rows.push(t.columns.map(() => ""))));
      const addCol = document.createElement("button");
      addCol.textContent = "Add a field";
      addCol.addEventListener("click", () => {
        const k = prompt("The field's key (as the format names it):");
        if (k) change(() => { t.columns.push({ key: k, kind: "string" }); t.rows.forEach((r) => r.push("")); });
      });
      box.append(h, tb, add, addCol);
      void ti;
    });
    markRows(st.check ? st.check.problems || [] : []);
  }
  function markRows(problems) {
    document.querySelectorAll("tr.bad").forEach((tr) => tr.classList.remove("bad"));
    for (const p of problems) {
      if (!p.table || p.row < 0) continue;
      const tr = document.querySelector(`table[data-table="${CSS.escape(p.table)}"] tr[data-row="${p.row}"]`);
      if (tr) { tr.classList.add("bad"); tr.title = p.message; }
    }
  }

  // ---- start ----
  function tools() {
    const set = $("toolset");
    for (const [k, label] of st.format === "network" ? netTools : hexTools) {
      const l = document.createElement("label"), i = document.createElement("input");
      i.type = "radio"; i.name = "tool"; i.value = k; i.id = "tool-" + k;
      i.addEventListener("change", () => { st.tool = k; st.road = null; st.linkFrom = null; st.align = []; hint(); draw(); });
      l.append(i, " " + label);
      set.append(l);
    }
    document.querySelectorAll(st.format === "network" ? ".hexonly" : ".netonly").forEach((e) => e.classList.add("hidden"));
  }
  function hint() {
    const dl = $("kinds");
    dl.textContent = "";
    for (const k of kinds[st.tool] || []) { const o = document.createElement("option"); o.value = k; dl.append(o); }
    $("hint").textContent = {
      align: "Click the centre of the first hex on the scan, then the centre of the hex named in Name (default: the last hex).",
      terrain: "Kind: the terrain. Click hexes; Fill paints the whole patch of one terrain.",
      area: "Name: the country or province; empty removes. Fill paints the whole patch.",
      side: "Kind: river or ridge. Click near a hexside to add or remove it.",
      road: "Kind: road, highway or railroad. Click hexes in order, then End the road.",
      place: "Kind (city, capital...) and Name; click a hex to add or remove.",
      set: "Name: the set (port, west_edge...). Click hexes to add or remove.",
      sideset: "Name: the side set. Click hexsides to add or remove.",
      space: "Name (and Kind: terrain), then click an empty spot to place a space; click a space to edit it.",
      move: "Click a space, then where it goes.",
      link: "Click two spaces to add or remove the road between them.",
    }[st.tool] || "";
  }
  async function start() {
    const o = await api("/api/document");
    st.doc = o.document;
    st.format = o.document.format;
    $("title").textContent = "umpire edit: " + o.title;
    $("files").textContent = o.map_file + (o.counters_file ? " and " + o.counters_file : "");
    if (o.scan) { st.scan = o.scan; $("scan").src = "/scan"; $("scan").width = o.scan.width; $("scan").height = o.scan.height; }
    tools();
    forms();
    showCheck(o.check);
    $("paint").addEventListener("click", click);
    $("undo").addEventListener("click", undo);
    $("redo").addEventListener("click", redo);
    $("save").addEventListener("click", save);
    $("endroad").addEventListener("click", endRoad);
    $("name").addEventListener("input", draw);
    for (const [r, el] of [["scanop", "scan"], ["judgeop", "judge"], ["paintop", "paint"]]) {
      const f = () => { $(el).style.opacity = $(r).value / 100; };
      $(r).addEventListener("input", f);
      f();
    }
    document.addEventListener("keydown", (e) => {
      if (!(e.ctrlKey || e.metaKey)) { if (e.key === "Enter" && st.road) endRoad(); return; }
      if (e.key === "z") { e.preventDefault(); undo(); } else if (e.key === "y") { e.preventDefault(); redo(); } else if (e.key === "s") { e.preventDefault(); save(); }
    });
    document.body.dataset.ready = "yes";
  }
  // for a test driving the page as a person would: where a hex or space is
  // on the painted layer, to click it.
  window.umpireEdit = { centre: (id) => centre(id), edge: (s) => { const e = edge(s); return e && { x: (e[0].x + e[1].x) / 2, y: (e[0].y + e[1].y) / 2 }; } };
  start().catch((e) => { $("status").textContent = "could not open: " + e.message; });
})();
