//! The HTML report in a real browser. The default suite is written at a
//! small trial count, then headless Chromium (Debian's `chromium`, which
//! `.ci/run` installs) lays `index.html` out at a phone's width (375 CSS
//! pixels) and a desktop's (1280), and prints it.
//!
//! How a layout is measured without a script in the report: the test
//! makes a harness page holding a copy of the report in an `<iframe>` of
//! the width under test (a headless window cannot be narrower than 500
//! pixels, an iframe can), with `html/check.js` appended to the copy.
//! The script reads the laid-out page — each scenario's section, each
//! chart's drawn box (an SVG that failed to parse or draws nothing has an
//! empty one), the size its smallest text is drawn at (each text's font
//! size times the SVG's scale on screen: at least 11 CSS pixels, at a
//! phone's width too) and any text reaching past its canvas, each image's
//! decoded size, every element that reaches past the right edge outside a
//! scrolling box, every in-page link's target — and writes its findings
//! as JSON into the harness, which
//! `--dump-dom` prints once the page has loaded. The same check run on
//! `html/broken.html` must find each of those faults, so the check itself
//! is tested. Printing goes through `--print-to-pdf`: each scenario
//! starts a page, so the PDF has more pages than scenarios.
//!
//! Without Chromium the test says so on stderr, past libtest's capture
//! so a passing `cargo test` shows it, and passes, unless
//! `WOUNDSIM_REQUIRE_CHROMIUM` is set (as `.ci/run` does once Chromium is
//! installed), where it fails. `WOUNDSIM_CHROMIUM` names the browser.

use crate::common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

use common::cli::woundsim;

/// The browser, if one is installed: `WOUNDSIM_CHROMIUM`, else the first
/// of the usual names on `PATH`.
fn chromium() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("WOUNDSIM_CHROMIUM") {
        return Some(PathBuf::from(path));
    }
    let path = std::env::var_os("PATH")?;
    [
        "chromium",
        "chromium-browser",
        "google-chrome",
        "google-chrome-stable",
    ]
    .iter()
    .flat_map(|name| std::env::split_paths(&path).map(move |dir| dir.join(name)))
    .find(|p| p.is_file())
}

/// The browser, or `None` after saying why the test is skipped (a failure
/// instead where `WOUNDSIM_REQUIRE_CHROMIUM` is set).
fn browser() -> Option<PathBuf> {
    let found = chromium();
    if found.is_none() {
        let why = "Chromium not found (install Debian's `chromium`, or set WOUNDSIM_CHROMIUM to a Chromium or Chrome binary)";
        assert!(
            std::env::var_os("WOUNDSIM_REQUIRE_CHROMIUM").is_none(),
            "WOUNDSIM_REQUIRE_CHROMIUM is set, but {why}"
        );
        // Straight to the process's stderr: libtest captures `eprintln!`
        // (shown only when a test fails), not writes to the handle, so the
        // skip shows in a passing `cargo test`'s output.
        let line = format!("skipped: the HTML report's browser test: {why}\n");
        let _ = std::io::Write::write_all(&mut std::io::stderr(), line.as_bytes());
    }
    found
}

/// Runs Chromium headless on `url` with `args`; returns its stdout.
fn run_chromium(browser: &Path, profile: &Path, args: &[String], url: &str) -> String {
    let out = assert_cmd::Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(args)
        .arg(url)
        .timeout(Duration::from_secs(120))
        .output()
        .expect("Chromium starts");
    assert!(
        out.status.success(),
        "Chromium failed ({}): {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn file_url(path: &Path) -> String {
    format!("file://{}", path.display())
}

/// What `check.js` found.
#[derive(Debug, serde::Deserialize)]
struct Findings {
    width: f64,
    client_width: f64,
    scroll_width: f64,
    sections: Vec<String>,
    charts: Vec<Chart>,
    broken_images: Vec<String>,
    overflow: Vec<String>,
    broken_anchors: Vec<String>,
    /// Charts with text reaching past their canvas.
    cut_text: Vec<String>,
}

#[derive(Debug, serde::Deserialize)]
struct Chart {
    id: String,
    ok: bool,
    /// The smallest text drawn, in CSS pixels (`None`: no text).
    min_text: Option<f64>,
}

/// The smallest chart text a reader should meet, in CSS pixels.
const MIN_TEXT_PX: f64 = 11.0;

/// Lays `page` out `width` CSS pixels wide and returns what `check.js`
/// found. The harness sits next to `page`, so relative links still resolve.
fn check(browser: &Path, page: &Path, width: u32) -> Findings {
    let html = std::fs::read_to_string(page).unwrap();
    let script = include_str!("../html/check.js");
    assert!(
        html.contains("</body>"),
        "{} has no </body>",
        page.display()
    );
    let checked = html.replacen("</body>", &format!("<script>{script}</script></body>"), 1);
    let srcdoc = checked.replace('&', "&amp;").replace('"', "&quot;");
    let harness = page.with_file_name(format!("woundsim-check-{width}.html"));
    std::fs::write(
        &harness,
        format!(
            "<!DOCTYPE html><html><body style=\"margin:0\"><iframe style=\"width:{width}px;height:900px;border:0\" srcdoc=\"{srcdoc}\"></iframe></body></html>"
        ),
    )
    .unwrap();
    let profile = tempfile::tempdir().unwrap();
    let window = format!("--window-size={},900", width.max(800) + 40);
    let dom = run_chromium(
        browser,
        profile.path(),
        &["--dump-dom".into(), window],
        &file_url(&harness),
    );
    std::fs::remove_file(&harness).unwrap();
    let start = dom
        .find("<pre id=\"woundsim-check\">")
        .unwrap_or_else(|| panic!("the check did not run on {}", page.display()))
        + "<pre id=\"woundsim-check\">".len();
    let end = start + dom[start..].find("</pre>").unwrap();
    let json = dom[start..end]
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&amp;", "&");
    serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}: {json}"))
}

/// Every `href="..."` and `src="..."` of `html`.
fn links(html: &str) -> Vec<String> {
    let mut out = Vec::new();
    for attr in ["href=\"", "src=\""] {
        let mut rest = html;
        while let Some(i) = rest.find(attr) {
            rest = &rest[i + attr.len()..];
            let end = rest.find('"').unwrap();
            out.push(rest[..end].to_string());
            rest = &rest[end..];
        }
    }
    out
}

#[test]
fn the_report_reads_on_a_phone_a_desktop_and_paper() {
    let Some(browser) = browser() else { return };
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("reports");
    woundsim()
        .args(["run", "--trials", "3000", "--quiet", "--out"])
        .arg(&out)
        .assert()
        .success();
    let page = out.join("index.html");
    let html = std::fs::read_to_string(&page).unwrap();

    // What the page must hold: a section per scenario of summary.csv, a
    // chart per SVG written.
    let summary = std::fs::read_to_string(out.join("summary.csv")).unwrap();
    let mut scenarios: Vec<String> = Vec::new();
    for line in summary.lines().skip(1) {
        let name = line.split(',').next().unwrap().to_string();
        if !scenarios.contains(&name) {
            scenarios.push(name);
        }
    }
    assert!(scenarios.len() >= 10, "{scenarios:?}");
    let sections: Vec<String> = scenarios.iter().map(|s| format!("sc-{s}")).collect();
    let mut charts = BTreeSet::new();
    for s in &scenarios {
        for entry in std::fs::read_dir(out.join(s)).unwrap() {
            let name = entry.unwrap().file_name().to_string_lossy().into_owned();
            if let Some(stem) = name.strip_suffix(".svg") {
                charts.insert(format!("sc-{s}-{stem}"));
            }
        }
    }

    // Self-contained: every link is relative and its file exists.
    for link in links(&html) {
        assert!(!link.contains("://"), "a link leaves the folder: {link}");
        if let Some(anchor) = link.strip_prefix('#') {
            assert!(html.contains(&format!("id=\"{anchor}\"")), "#{anchor}");
        } else {
            assert!(
                out.join(&link).is_file(),
                "a link to a missing file: {link}"
            );
        }
    }
    assert!(!html.contains("<script"), "the report has no script");

    for width in [375, 1280] {
        let f = check(&browser, &page, width);
        assert_eq!(
            f.width,
            f64::from(width),
            "the page was not laid out {width} wide"
        );
        assert_eq!(f.sections, sections, "{width} px: sections");
        let drawn: BTreeSet<String> = f.charts.iter().map(|c| c.id.clone()).collect();
        assert_eq!(drawn, charts, "{width} px: charts");
        let broken: Vec<&str> = f
            .charts
            .iter()
            .filter(|c| !c.ok)
            .map(|c| c.id.as_str())
            .collect();
        assert!(
            broken.is_empty(),
            "{width} px: charts that draw nothing: {broken:?}"
        );
        let small: Vec<String> = f
            .charts
            .iter()
            .filter_map(|c| {
                let px = c.min_text?;
                // A hundredth of a pixel for the browser's float rounding.
                (px < MIN_TEXT_PX - 0.01).then(|| format!("{} ({px:.1} px)", c.id))
            })
            .collect();
        assert!(
            small.is_empty(),
            "{width} px: charts whose text is drawn under {MIN_TEXT_PX} px: {small:?}"
        );
        assert!(
            f.cut_text.is_empty(),
            "{width} px: charts with text cut off: {:?}",
            f.cut_text
        );
        assert!(
            f.broken_images.is_empty(),
            "{width} px: {:?}",
            f.broken_images
        );
        assert!(
            f.overflow.is_empty() && f.scroll_width <= f.client_width,
            "{width} px: the page is {} px wide for a {} px window; past the edge: {:?}",
            f.scroll_width,
            f.client_width,
            f.overflow
        );
        assert!(f.broken_anchors.is_empty(), "{:?}", f.broken_anchors);
    }

    // A desktop screenshot has content: not one colour.
    let profile = tempfile::tempdir().unwrap();
    let shot = dir.path().join("desktop.png");
    run_chromium(
        &browser,
        profile.path(),
        &[
            format!("--screenshot={}", shot.display()),
            "--window-size=1280,2000".into(),
        ],
        &file_url(&page),
    );
    let image = image::load_from_memory(&std::fs::read(&shot).unwrap())
        .unwrap()
        .to_rgb8();
    let white = image.pixels().filter(|p| p.0 == [255, 255, 255]).count();
    let total = image.pixels().count();
    assert!(
        white < total * 995 / 1000 && white > total / 4,
        "{white} of {total} pixels are white"
    );

    // In print each scenario starts a page after the contents.
    let pdf = dir.path().join("report.pdf");
    let profile = tempfile::tempdir().unwrap();
    run_chromium(
        &browser,
        profile.path(),
        &[
            format!("--print-to-pdf={}", pdf.display()),
            "--no-pdf-header-footer".into(),
        ],
        &file_url(&page),
    );
    let bytes = std::fs::read(&pdf).unwrap();
    assert!(bytes.starts_with(b"%PDF"));
    let text = String::from_utf8_lossy(&bytes);
    let pages = text
        .match_indices("/Count ")
        .filter_map(|(i, _)| {
            text[i + 7..]
                .split(|c: char| !c.is_ascii_digit())
                .next()?
                .parse::<usize>()
                .ok()
        })
        .max()
        .unwrap_or(0);
    assert!(
        pages > scenarios.len(),
        "{pages} printed pages for {} scenarios",
        scenarios.len()
    );
}

#[test]
fn the_check_finds_a_missing_section_a_broken_chart_and_an_overflow() {
    let Some(browser) = browser() else { return };
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("broken.html");
    std::fs::copy(common::cli::fixture("tests/html/broken.html"), &page).unwrap();
    let f = check(&browser, &page, 375);
    assert_eq!(f.width, 375.0);
    assert_eq!(
        f.sections,
        ["sc-a"],
        "so a section of a second scenario is missing"
    );
    assert_eq!(f.charts.len(), 3);
    let [empty, tiny, missing] = &f.charts[..] else {
        unreachable!()
    };
    assert!(!empty.ok && !missing.ok, "{:?}", f.charts);
    // 20-unit text in a 1000-unit SVG drawn 375 - 16 px wide (the
    // body's margins) is 7.2 px.
    let px = tiny.min_text.expect("the tiny chart's text is measured");
    assert!(px < MIN_TEXT_PX && px > 5.0, "{px}");
    assert_eq!(f.broken_images, ["a/missing.png"]);
    assert!(
        f.scroll_width > f.client_width && f.overflow.iter().any(|e| e.starts_with("table")),
        "{f:?}"
    );
    assert_eq!(f.broken_anchors, ["#sc-gone"]);
    assert_eq!(f.cut_text, ["sc-a-tiny"]);
}
