// Injected by tests/html_report.rs into a copy of index.html (the report
// itself has no script): measures the page as Chromium laid it out and
// writes the findings as JSON into <pre id="woundsim-check">.
(function () {
  // The layout width, less any vertical scroll bar.
  var w = document.documentElement.clientWidth;
  var r = {
    width: window.innerWidth,
    client_width: w,
    scroll_width: document.documentElement.scrollWidth,
    sections: [],
    charts: [],
    broken_images: [],
    overflow: [],
    broken_anchors: [],
    cut_text: []
  };
  document.querySelectorAll('section.scenario').forEach(function (s) {
    r.sections.push(s.id);
  });
  document.querySelectorAll('figure.chart').forEach(function (f) {
    var svg = f.querySelector('svg');
    var ok = false;
    // The smallest text as drawn, in CSS pixels: each text's font size in
    // the SVG's units times the scale from those units to the screen.
    var minText = null;
    if (svg) {
      svg.querySelectorAll('text').forEach(function (t) {
        var m = t.getScreenCTM();
        if (!m || !t.textContent.trim()) return;
        var px = parseFloat(getComputedStyle(t).fontSize) * Math.sqrt(m.a * m.a + m.b * m.b);
        if (minText === null || px < minText) minText = px;
        // Text reaching past the SVG's own canvas is cut off.
        // (Boxes on screen, so a rotated axis caption counts as drawn.)
        var c = svg.getBoundingClientRect(), b = t.getBoundingClientRect();
        var off = b.left < c.left - 1 || b.right > c.right + 1 ||
          b.top < c.top - 1 || b.bottom > c.bottom + 1;
        if (off && r.cut_text.indexOf(f.id) < 0) r.cut_text.push(f.id);
      });
      var box = svg.getBoundingClientRect();
      var drawn = { width: 0, height: 0 };
      try { drawn = svg.getBBox(); } catch (e) {}
      ok = box.width > 0 && box.height > 0 && drawn.width > 0 && drawn.height > 0 &&
        svg.querySelectorAll('text').length > 0;
    }
    r.charts.push({ id: f.id, ok: ok, min_text: minText });
  });
  Array.prototype.forEach.call(document.images, function (i) {
    if (!(i.complete && i.naturalWidth > 0)) r.broken_images.push(i.getAttribute('src'));
  });
  document.querySelectorAll('body *').forEach(function (e) {
    var b = e.getBoundingClientRect();
    if (b.right > w + 0.5 && !(e.closest('.scroll'))) {
      var name = e.tagName.toLowerCase();
      if (e.id) name += '#' + e.id;
      if (typeof e.className === 'string' && e.className) name += '.' + e.className;
      r.overflow.push(name);
    }
  });
  document.querySelectorAll('a[href^="#"]').forEach(function (a) {
    var id = decodeURIComponent(a.getAttribute('href').slice(1));
    if (!document.getElementById(id)) r.broken_anchors.push(a.getAttribute('href'));
  });
  // In the harness the page is an iframe of the width under test; the
  // findings go to the harness page, which is what --dump-dom prints.
  var host = window.parent.document;
  var pre = host.createElement('pre');
  pre.id = 'woundsim-check';
  pre.textContent = JSON.stringify(r);
  host.body.appendChild(pre);
})();
