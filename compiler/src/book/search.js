// The book's search (no server, nothing fetched): filters BOOK_INDEX as the reader
// types. Results are made with textContent, so no name can become markup.
(function () {
  "use strict";
  const input = document.getElementById("search");
  const list = document.getElementById("results");
  if (!input || !list) return;
  const root = document.body.getAttribute("data-root") || "";
  function show() {
    const q = input.value.trim().toLowerCase();
    while (list.firstChild) list.removeChild(list.firstChild);
    if (q === "") return;
    let shown = 0;
    for (const [name, kind, href] of BOOK_INDEX) {
      if (!name.toLowerCase().includes(q)) continue;
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.setAttribute("href", root + href);
      a.textContent = name;
      const k = document.createElement("span");
      k.className = "kind";
      k.textContent = " " + kind;
      li.appendChild(a);
      li.appendChild(k);
      list.appendChild(li);
      if (++shown >= 50) break;
    }
  }
  input.addEventListener("input", show);
})();
