// rulesc studio's page. Everything the server sends that came from the ruleset (file
// names, diagnostics, traces, odds labels) is put into the page as text (textContent),
// never as markup; charts are shown as images (an SVG in an <img> runs no script).
"use strict";
(() => {
  const token = document.querySelector('meta[name="rulesc-token"]').content;
  const $ = (id) => document.getElementById(id);
  const LINE = 18; // px, as studio.css sets the editor's line height
  const PAD = 4; // px, the textarea's top padding
  // files[name] = {text, saved, version, kind}: `saved` is the text as on disk when the
  // page loaded or saved it, `version` the server's version of that.
  const state = { files: {}, kinds: {}, current: null, seq: 0, timer: null, diags: [] };

  async function api(path, body) {
    const opts = { method: body === undefined ? "GET" : "POST", headers: { "X-Rulesc-Token": token } };
    if (body !== undefined) {
      opts.body = JSON.stringify(body);
      opts.headers["Content-Type"] = "application/json";
    }
    let r;
    try {
      r = await fetch(path, opts);
    } catch (e) {
      return { status: 0, data: { error: "the studio does not answer (is `rulesc studio` still running?)" } };
    }
    let data;
    try {
      data = await r.json();
    } catch (e) {
      data = { error: "the studio answered " + r.status };
    }
    return { status: r.status, data };
  }

  function el(tag, text, cls) {
    const e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = String(text);
    if (cls) e.className = cls;
    return e;
  }

  function status(text) {
    $("status").textContent = text;
  }

  function message(text, ok) {
    $("conflict").hidden = true;
    const m = $("message");
    m.hidden = !text;
    m.textContent = text || "";
    m.className = ok ? "ok" : "";
  }

  function unsaved() {
    const out = {};
    for (const [name, f] of Object.entries(state.files)) if (f.text !== f.saved) out[name] = f.text;
    return out;
  }

  // --- files -------------------------------------------------------------------------

  async function listFiles() {
    const { data } = await api("/api/files");
    if (data.error) return status(data.error);
    const ul = $("files");
    ul.textContent = "";
    let group = null;
    for (const f of data.files) {
      state.kinds[f.name] = f.kind;
      if (f.kind !== group) {
        group = f.kind;
        ul.appendChild(el("li", group === "ruleset" ? "ruleset" : "examples", "group"));
      }
      const li = el("li");
      const b = el("button", f.name.split("/").pop());
      b.type = "button";
      b.title = f.name;
      b.dataset.name = f.name;
      b.addEventListener("click", () => openFile(f.name));
      li.appendChild(b);
      ul.appendChild(li);
    }
    fillSelect($("scenario"), data.scenarios.scenarios);
    fillSelect($("fight"), data.scenarios.fights);
    fillSelect($("variant"), data.variants);
    $("compare-row").hidden = data.variants.length === 0;
    $("compare-fight").hidden = data.variants.length === 0;
    const first = data.files.find((f) => f.name.endsWith("/ruleset.yaml")) || data.files[0];
    if (first) await openFile(first.name);
  }

  function fillSelect(select, names) {
    select.textContent = "";
    for (const n of names) {
      const o = el("option", n.split("/").pop());
      o.value = n;
      select.appendChild(o);
    }
  }

  async function load(name) {
    if (state.files[name]) return state.files[name];
    const { data } = await api("/api/file", { name });
    if (data.error) {
      message(data.error);
      return null;
    }
    state.files[name] = { text: data.text, saved: data.text, version: data.version };
    return state.files[name];
  }

  async function openFile(name) {
    const f = await load(name);
    if (!f) return;
    state.current = name;
    const ta = $("text");
    ta.value = f.text;
    ta.scrollTop = 0;
    $("current").textContent = name;
    for (const b of document.querySelectorAll("#files button")) b.classList.toggle("open", b.dataset.name === name);
    refresh();
  }

  function refresh() {
    const f = state.files[state.current];
    if (!f) return;
    const dirty = f.text !== f.saved;
    $("dirty").textContent = dirty ? "unsaved changes" : "";
    $("save").disabled = !dirty;
    for (const b of document.querySelectorAll("#files button")) {
      const g = state.files[b.dataset.name];
      b.classList.toggle("dirty", !!g && g.text !== g.saved);
    }
    drawLines();
  }

  // The gutter's numbers and the marks behind the text, one per line with a problem.
  function drawLines() {
    const f = state.files[state.current];
    const lines = f.text.split("\n").length;
    const worst = {};
    for (const d of state.diags) {
      if (d.file !== state.current || !d.line) continue;
      if (worst[d.line] !== "error") worst[d.line] = d.severity;
    }
    // The numbers in one block, moved with the text as it scrolls.
    const gutter = el("div");
    gutter.id = "gutter-lines";
    $("gutter").textContent = "";
    $("gutter").appendChild(gutter);
    const marks = $("marks");
    marks.textContent = "";
    for (let i = 1; i <= lines; i++) {
      const n = el("div", i, worst[i] || "");
      gutter.appendChild(n);
    }
    for (const [line, sev] of Object.entries(worst)) {
      const m = el("div", undefined, sev);
      m.dataset.line = line;
      m.style.top = PAD + (Number(line) - 1) * LINE + "px";
      marks.appendChild(m);
    }
    scrolled();
  }

  function scrolled() {
    const ta = $("text");
    const lines = $("gutter-lines");
    if (lines) lines.style.transform = "translateY(" + -ta.scrollTop + "px)";
    $("marks").style.transform = "translateY(" + -ta.scrollTop + "px)";
  }

  function edited() {
    const f = state.files[state.current];
    if (!f) return;
    f.text = $("text").value;
    refresh();
    // One check after a pause in typing, not one per key.
    clearTimeout(state.timer);
    state.timer = setTimeout(check, 300);
  }

  // --- checking ----------------------------------------------------------------------

  async function check() {
    const seq = ++state.seq;
    status("checking…");
    const { data } = await api("/api/check", { seq, files: unsaved() });
    if (data.superseded || seq !== state.seq) return; // a newer check is on its way
    if (data.error) return status(data.error);
    state.diags = data.diagnostics;
    status(
      data.errors + data.warnings === 0
        ? "no problems"
        : plural(data.errors, "error") + ", " + plural(data.warnings, "warning"),
    );
    showProblems();
    drawLines();
  }

  function plural(n, word) {
    return n + " " + word + (n === 1 ? "" : "s");
  }

  function showProblems() {
    const ul = $("problems");
    ul.textContent = "";
    $("counts").textContent = state.diags.length ? "(" + state.diags.length + ")" : "";
    for (const d of state.diags) {
      const li = el("li", undefined, d.severity);
      li.dataset.file = d.file || "";
      li.dataset.line = d.line || "";
      li.appendChild(el("span", d.line ? d.file + ":" + d.line + ":" + d.col : d.file || "", "where"));
      li.appendChild(el("span", d.code, "code"));
      li.appendChild(el("span", d.message, "text"));
      if (d.help) {
        li.appendChild(el("br"));
        li.appendChild(el("span", "help: " + d.help, "help"));
      }
      if (d.fix) {
        const b = el("button", "Apply fix: " + d.fix.old + " → " + d.fix.new, "fix");
        b.type = "button";
        b.addEventListener("click", (ev) => {
          ev.stopPropagation();
          applyFix(d);
        });
        li.appendChild(b);
      }
      li.addEventListener("click", () => reveal(d));
      li.title = d.rendered;
      ul.appendChild(li);
    }
  }

  async function reveal(d) {
    if (!d.served) return;
    if (state.current !== d.file) await openFile(d.file);
    const ta = $("text");
    ta.focus();
    ta.setSelectionRange(d.from, d.to);
    ta.scrollTop = Math.max(0, (d.line - 5) * LINE);
    scrolled();
  }

  async function applyFix(d) {
    const f = await load(d.file);
    if (!f) return;
    if (f.text.slice(d.fix.from, d.fix.to) !== d.fix.old) {
      message("The text changed since this problem was found; wait for the next check.");
      return;
    }
    f.text = f.text.slice(0, d.fix.from) + d.fix.new + f.text.slice(d.fix.to);
    if (state.current === d.file) {
      const ta = $("text");
      const top = ta.scrollTop;
      ta.value = f.text;
      ta.scrollTop = top;
    }
    refresh();
    clearTimeout(state.timer);
    check();
  }

  // --- saving ------------------------------------------------------------------------

  async function save() {
    const name = state.current;
    const f = state.files[name];
    if (!f || f.text === f.saved) return;
    const text = f.text;
    const { status: code, data } = await api("/api/save", { name, text, version: f.version });
    if (code === 200) {
      f.saved = text;
      f.version = data.version;
      message("Saved " + name + ".", true);
    } else {
      // Refused: the text stays in the editor, unsaved.
      message(data.error || "the save failed");
      if (data.conflict) $("conflict").hidden = false;
    }
    refresh();
  }

  // After a refused save: the disk's text and version, for the page to show (dropping
  // the page's changes) or to save over (keeping them).
  async function fromDisk() {
    const name = state.current;
    const { data } = await api("/api/file", { name });
    if (data.error) {
      message(data.error);
      return null;
    }
    return { name, data };
  }

  async function loadDisk() {
    const got = await fromDisk();
    if (!got) return;
    const f = state.files[got.name];
    f.text = f.saved = got.data.text;
    f.version = got.data.version;
    if (state.current === got.name) $("text").value = f.text;
    message("Loaded " + got.name + " as it is on disk.", true);
    refresh();
    check();
  }

  async function overwrite() {
    const got = await fromDisk();
    if (!got) return;
    const f = state.files[got.name];
    f.saved = got.data.text;
    f.version = got.data.version;
    await save();
  }

  // --- running -----------------------------------------------------------------------

  function runError(data) {
    const box = $("run-error");
    const lines = [data.error || "the run failed"];
    for (const d of data.diagnostics || []) lines.push(d.rendered);
    box.textContent = lines.join("\n");
    box.hidden = false;
  }

  function clearRun() {
    $("run-error").hidden = true;
    $("chart").textContent = "";
    $("odds-table").textContent = "";
    $("output").textContent = "";
  }

  async function run(path, body, what) {
    clearRun();
    status(what + "…");
    const { data } = await api(path, Object.assign({ files: unsaved() }, body));
    status(data.error ? what + " failed" : what + " done");
    if (data.error) runError(data);
    return data;
  }

  async function trace() {
    const data = await run("/api/trace", { scenario: $("scenario").value }, "tracing");
    if (!data.error) $("output").textContent = data.trace;
  }

  function fractionPercent(f) {
    if (!f) return "";
    const [a, b] = f.split("/");
    const v = b ? Number(a) / Number(b) : Number(a);
    return (v * 100).toFixed(4) + "%";
  }

  async function odds() {
    const by = $("by").value.trim();
    const data = await run("/api/odds", { scenario: $("scenario").value, by: by || null }, "analyzing");
    if (data.error) return;
    for (const svg of data.charts) {
      const img = el("img");
      img.alt = "odds chart";
      img.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(svg);
      $("chart").appendChild(img);
    }
    const table = $("odds-table");
    for (const r of data.analyze.results) {
      const cap = el("caption", r.procedure + (r.by ? " by " + r.by : ""));
      table.appendChild(cap);
      const head = el("tr");
      for (const h of ["outcome", "chance", "at least", "at most", "exact"]) head.appendChild(el("th", h));
      table.appendChild(head);
      for (const g of r.groups) {
        const tr = el("tr");
        tr.appendChild(el("td", g.group, "group"));
        tr.appendChild(el("td", g.percent.toFixed(4) + "%", "percent"));
        tr.appendChild(el("td", fractionPercent(g.at_least), "at-least"));
        tr.appendChild(el("td", fractionPercent(g.at_most), "at-most"));
        tr.appendChild(el("td", g.probability, "exact"));
        table.appendChild(tr);
      }
    }
    $("output").textContent = data.analyze.results.map((r) => r.work).join("\n");
  }

  // The odds under the ruleset and a variant, as `rulesc diff` gives them.
  async function compare() {
    const by = $("by").value.trim();
    const body = { scenario: $("scenario").value, variant: $("variant").value, by: by || null };
    const data = await run("/api/diff", body, "comparing");
    if (data.error) return;
    const img = el("img");
    img.alt = "odds of both rulesets";
    img.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(data.chart);
    $("chart").appendChild(img);
    $("output").textContent = data.text;
  }

  // A fight under the ruleset and the chosen variant, simulated as `rulesc diff` does.
  async function compareFight() {
    const body = { fight: $("fight").value, variant: $("variant").value };
    const data = await run("/api/diff", body, "comparing");
    if (data.error) return;
    const img = el("img");
    img.alt = "the fight under both rulesets";
    img.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(data.chart);
    $("chart").appendChild(img);
    $("output").textContent = data.text;
  }

  async function simulate() {
    const data = await run("/api/simulate", { fight: $("fight").value }, "simulating");
    if (!data.error) $("output").textContent = data.text;
  }

  // --- wiring ------------------------------------------------------------------------

  window.addEventListener("DOMContentLoaded", async () => {
    const ta = $("text");
    ta.addEventListener("input", edited);
    ta.addEventListener("scroll", scrolled);
    ta.addEventListener("keydown", (ev) => {
      if (ev.key === "Tab" && !ev.shiftKey && !ev.ctrlKey && !ev.altKey) {
        ev.preventDefault();
        ta.setRangeText("  ", ta.selectionStart, ta.selectionEnd, "end");
        edited();
      }
    });
    document.addEventListener("keydown", (ev) => {
      if ((ev.ctrlKey || ev.metaKey) && ev.key === "s") {
        ev.preventDefault();
        save();
      }
    });
    window.addEventListener("beforeunload", (ev) => {
      if (Object.keys(unsaved()).length) ev.preventDefault();
    });
    $("save").addEventListener("click", save);
    $("load-disk").addEventListener("click", loadDisk);
    $("overwrite").addEventListener("click", overwrite);
    $("trace").addEventListener("click", trace);
    $("odds").addEventListener("click", odds);
    $("simulate").addEventListener("click", simulate);
    $("compare").addEventListener("click", compare);
    $("compare-fight").addEventListener("click", compareFight);
    await listFiles();
    await check();
  });
})();
