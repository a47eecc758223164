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
    broken_anchors: []
  };
  document.querySelectorAll('section.scenario').forEach(function (s) {
    r.sections.push(s.id);
  });
  document.querySelectorAll('figure.chart').forEach(function (f) {
    var svg = f.querySelector('svg');
    var ok = false;
    if (svg) {
      var box = svg.getBoundingClientRect();
      var drawn = { width: 0, height: 0 };
      try { drawn = svg.getBBox(); } catch (e) {}
      ok = box.width > 0 && box.height > 0 && drawn.width > 0 && drawn.height > 0 &&
        svg.querySelectorAll('text').length > 0;
    }
    r.charts.push({ id: f.id, ok: ok });
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
