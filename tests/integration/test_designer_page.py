"""The designers' page at `/`, driven in headless Chromium against the real `contrast serve`.

It walks the path a designer takes: open a palette, make body text pale, see the regression
with its measured ratio, apply the suggested color, see the check pass, download the palette
and the audit, and bring a broken palette of their own. The browser console must stay clean
at every step, and axe-core (from axe-selenium-python) finds no accessibility violation on the
page in its states. Screenshots go to $CONTRAST_ARTIFACTS (default test-artifacts/) for the run.
"""
import json
import os
import pathlib
import re
import shutil
import time

import pytest

from conftest import ROOT
from server import Server

ARTIFACTS = pathlib.Path(os.environ.get("CONTRAST_ARTIFACTS", ROOT / "test-artifacts")) / "designer-page"
PALE_GRAY = "#e5e7eb"


@pytest.fixture
def server(binary, tmp_path):
    palettes = tmp_path / "palettes"
    shutil.copytree(ROOT / "palettes", palettes)
    s = Server(binary, str(palettes), "--threads", "2")
    yield s
    assert s.stop() == 0, s.logs()


@pytest.fixture
def browser(tmp_path):
    driver = make_browser(tmp_path / "downloads")
    yield driver
    driver.quit()


def make_browser(downloads):
    if not shutil.which("chromium") or not os.path.exists("/usr/bin/chromedriver"):
        pytest.skip("chromium and /usr/bin/chromedriver are not installed (make deps-test installs them)")
    pytest.importorskip("selenium")
    # Offline: never let Selenium Manager download drivers or send statistics.
    os.environ["SE_OFFLINE"] = "true"
    os.environ["SE_AVOID_STATS"] = "true"
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    downloads.mkdir()
    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1400,1800",
                     "--force-color-profile=srgb", "--no-first-run", "--disable-extensions"):
        options.add_argument(argument)
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    options.add_experimental_option("prefs", {"download.default_directory": str(downloads),
                                              "download.prompt_for_download": False})
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(executable_path="/usr/bin/chromedriver"), options=options)
    driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)})
    driver.downloads = downloads
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return driver


def wait_for(condition, what, timeout=15):
    deadline = time.time() + timeout
    last = None
    while time.time() < deadline:
        try:
            value = condition()
            if value:
                return value
        except Exception as error:  # the element may be re-rendered while we look
            last = error
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}" + (f" (last error: {last})" if last else ""))


def console_is_clean(driver, step):
    entries = driver.get_log("browser")
    errors = [e for e in entries if e["level"] in ("SEVERE", "WARNING")]
    assert not errors, f"console errors after {step}: {errors}"


def accessible(driver, step):
    """axe-core, run in the page as it is now: no violation of any rule it checks."""
    from axe_selenium_python import Axe
    axe = Axe(driver)
    axe.inject()
    violations = axe.run()["violations"]
    found = [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:5]) for v in violations]
    assert not found, f"axe-core found {len(found)} violations after {step}: {found}"


def edit_once(driver, field, value):
    """One edit, as one input event (typing sends one per key)."""
    driver.execute_script("arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input', {bubbles: true}));", field, value)


COUNT_REQUESTS = """
  window.contrastRequests = [];
  if (!window.contrastFetch) {
    window.contrastFetch = window.fetch;
    window.fetch = (path, init) => {
      window.contrastRequests.push(`${(init && init.method) || 'GET'} ${String(path).split('?')[0]}`);
      return window.contrastFetch(path, init);
    };
  }"""


def changes_of(fix):
    """The changes a fix swatch makes, as the page read them from the audit JSON."""
    return json.loads(fix.get_attribute("data-changes"))


def shot(driver, name):
    """The whole page, not just the window, as a PNG artifact."""
    import base64
    size = driver.execute_cdp_cmd("Page.getLayoutMetrics", {})["cssContentSize"]
    image = driver.execute_cdp_cmd("Page.captureScreenshot", {
        "format": "png", "captureBeyondViewport": True,
        "clip": {"x": 0, "y": 0, "width": size["width"], "height": min(size["height"], 12000), "scale": 1}})
    (ARTIFACTS / f"{name}.png").write_bytes(base64.b64decode(image["data"]))


DOCS = ROOT / "docs" / "screenshots"


def docs_shot(driver, name, css=None):
    """With CONTRAST_SCREENSHOTS=docs (not on every run), the state as the README shows it:
    docs/screenshots/NAME.png, the element `css` (with a margin) or the window."""
    if os.environ.get("CONTRAST_SCREENSHOTS") != "docs":
        return
    import base64
    DOCS.mkdir(parents=True, exist_ok=True)
    if css is None:
        (DOCS / f"{name}.png").write_bytes(driver.get_screenshot_as_png())
        return
    box = driver.execute_script(
        "const r = document.querySelector(arguments[0]).getBoundingClientRect();"
        "return [r.left + scrollX, r.top + scrollY, r.width, r.height];", css)
    x, y, w, h = max(box[0] - 12, 0), max(box[1] - 12, 0), box[2] + 24, min(box[3] + 24, 1600)
    image = driver.execute_cdp_cmd("Page.captureScreenshot", {
        "format": "png", "captureBeyondViewport": True, "clip": {"x": x, "y": y, "width": w, "height": h, "scale": 1}})
    (DOCS / f"{name}.png").write_bytes(base64.b64decode(image["data"]))


def downloaded(driver, name, timeout=15):
    path = driver.downloads / name
    return wait_for(lambda: path.exists() and not (driver.downloads / (name + ".crdownload")).exists() and path.read_bytes() and path,
                    f"the download {name}", timeout)


def test_a_designer_breaks_body_text_and_takes_the_fix(server, browser, run):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    d = browser
    d.get(server.base + "/")
    assert d.title == "contrast · palettes"
    listing = d.find_element(By.CSS_SELECTOR, '.palette-list > li[data-palette="peptide-fox"]')
    assert "checks fail" in listing.text and "light:" in listing.text and "dark:" in listing.text
    shot(d, "01-palettes")
    console_is_clean(d, "opening the page")

    # Open Peptide Fox from the keyboard: its audit, rendered by the report's renderer, and the
    # token editor.
    listing.find_element(By.CSS_SELECTOR, "a.open-palette").send_keys(Keys.ENTER)
    wait_for(lambda: d.find_elements(By.CSS_SELECTOR, '#audit-view tr[data-theme="light"][data-check="body-text-on-page"]'),
             "the audit of peptide-fox")
    assert d.find_element(By.ID, "workbench-title").text == "Workbench: peptide-fox"
    assert d.current_url.endswith("#palette=peptide-fox")
    assert d.find_elements(By.ID, "palette-peptide-fox-side-by-side"), "light and dark side by side"
    assert "0 regressions" in d.find_element(By.ID, "status").text
    shot(d, "02-peptide-fox")
    console_is_clean(d, "opening peptide-fox")
    accessible(d, "opening peptide-fox")
    assert d.switch_to.active_element.get_attribute("id") == "workbench-title", "focus moves to the opened palette"
    # Every control has a name a screen reader can say.
    unnamed = d.execute_script("""
        return Array.from(document.querySelectorAll('input, textarea, button, select, [role=button]')).filter((c) => {
          const labelled = (c.labels && c.labels.length) || c.getAttribute('aria-label') || c.getAttribute('aria-labelledby');
          return !labelled && !(c.tagName === 'BUTTON' || c.getAttribute('role') === 'button') ? true : !labelled && !c.textContent.trim();
        }).map((c) => c.outerHTML.slice(0, 120));""")
    assert not unnamed, unnamed

    # Make body text pale gray in the light theme.
    field = d.find_element(By.CSS_SELECTOR, '#editor fieldset[data-theme="light"] .token[data-token="text.body"] input[type=text]')
    assert field.get_attribute("value") == "#0f172a"
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys(PALE_GRAY)
    expected = json.loads(run("check", PALE_GRAY, "#ffffff", "--format", "json").stdout)["display"]
    regression = wait_for(lambda: [li.text for li in d.find_elements(By.CSS_SELECTOR, '#changes section[data-theme="light"] ul.regressed li')
                                   if li.text.startswith("body-text-on-page:")], "the regression of body-text-on-page")
    assert f"→ {expected}" in regression[0] and "pass → fail" in regression[0], regression
    assert not d.find_elements(By.CSS_SELECTOR, '#changes section[data-theme="dark"] ul.regressed li'), "dark has its own text.body"
    assert "regression" in d.find_element(By.ID, "status").text
    row = d.find_element(By.CSS_SELECTOR, '#audit-view tr[data-theme="light"][data-check="body-text-on-page"]')
    assert row.get_attribute("data-verdict") == "fail" and row.get_attribute("data-regressed") == "true"
    assert expected in row.text
    shot(d, "03-regression")
    docs_shot(d, "edit-regression", "#changes")
    console_is_clean(d, "making body text pale")

    # A bad color is marked at once with the parser's message, and nothing is lost.
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys("#e5e7e")
    message = wait_for(lambda: d.find_element(By.CSS_SELECTOR, '#editor fieldset[data-theme="light"] .token[data-token="text.body"] .message').text,
                       "the parser's message")
    assert "#e5e7e" in message and "hex color" in message, message
    assert field.get_attribute("aria-invalid") == "true"
    shot(d, "04-bad-color")
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys(PALE_GRAY)
    wait_for(lambda: field.get_attribute("aria-invalid") is None and
             d.find_elements(By.CSS_SELECTOR, '#audit-view:not(.stale) tr[data-theme="light"][data-check="body-text-on-page"] .fix'),
             "the audit back, with fixes")

    # Take the suggested text color, with the keyboard.
    fix = d.find_element(By.CSS_SELECTOR, '#audit-view tr[data-theme="light"][data-check="body-text-on-page"] .fix')
    change = changes_of(fix)  # from the audit JSON, as a click applies it
    assert fix.get_attribute("data-fix") == "foreground" and not fix.get_attribute("data-apply")
    assert change[0]["pointer"] == "/themes/light/tokens/text.body/$value" and change[0]["token"] == "text.body"
    suggested = change[0]["value"]
    assert fix.get_attribute("role") == "button" and fix.get_attribute("tabindex") == "0"
    fix.send_keys(Keys.ENTER)
    wait_for(lambda: d.find_element(By.CSS_SELECTOR, '#audit-view tr[data-theme="light"][data-check="body-text-on-page"]').get_attribute("data-verdict") == "pass",
             "body-text-on-page to pass")
    assert field.get_attribute("value") == suggested
    # Focus comes back to the same check, not to the top of the page.
    focused = wait_for(lambda: d.switch_to.active_element.get_attribute("data-check") == "body-text-on-page" and d.switch_to.active_element,
                       "focus on the fixed check")
    assert focused.get_attribute("data-theme") == "light" and d.execute_script("return window.scrollY") > 500
    # It passes AA again; from 17:1 it still fell a level (AAA → AA), which stays listed.
    still = [li.text for li in d.find_elements(By.CSS_SELECTOR, '#changes section[data-theme="light"] ul.regressed li')
             if li.text.startswith("body-text-on-page:")]
    assert all("→ fail" not in text and "AAA → AA" in text for text in still), still
    shot(d, "05-fixed")
    console_is_clean(d, "applying the fix")
    accessible(d, "applying the fix")

    # Download the palette: the original file with that one value changed, ready to commit.
    d.find_element(By.ID, "download-palette").click()
    saved = downloaded(d, "peptide-fox.json").read_text()
    original = (ROOT / "palettes" / "peptide-fox.json").read_text()
    assert json.loads(saved)["themes"]["light"]["tokens"]["text.body"]["$value"] == suggested
    assert saved == original.replace('"$value": "#0f172a",\n          "$description": "slate-900; \'Text\', light mode',
                                     f'"$value": "{suggested}",\n          "$description": "slate-900; \'Text\', light mode', 1)
    assert run("audit", str(d.downloads / "peptide-fox.json"), "--format", "json").returncode in (0, 1)
    # An audit downloaded right after typing is the audit of what was typed, not of the last pause.
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys("#111111")
    d.find_element(By.ID, "download-audit-json").click()
    audit = json.loads(downloaded(d, "peptide-fox-audit.json").read_text())
    assert audit["palettes"][0]["name"] == "peptide-fox" and "comparison" in audit
    light = next(t for t in audit["palettes"][0]["themes"] if t["name"] == "light")
    assert next(r for r in light["results"] if r["id"] == "body-text-on-page")["foreground"]["hex"] == "#111111"
    d.find_element(By.ID, "download-audit-md").click()
    markdown = downloaded(d, "peptide-fox-audit.md").read_text()
    assert markdown.startswith("## Proposed change to peptide-fox") and "Against the served palette" in markdown
    console_is_clean(d, "downloading")

    # Bring a broken palette: the error names the JSON path.
    broken = {"name": "brought", "themes": {"light": {"tokens": {"ink": "#12", "paper": "#ffffff"}}},
              "checks": [{"foreground": "ink", "background": "paper"}]}
    area = d.find_element(By.ID, "byo-text")
    d.execute_script("arguments[0].value = arguments[1]", area, json.dumps(broken, indent=2))
    d.find_element(By.ID, "byo-audit").click()
    result = wait_for(lambda: d.find_element(By.ID, "byo-result").text, "the problems of the brought palette")
    assert "/themes/light/tokens/ink" in result and "not a valid color" in result, result
    assert area.get_attribute("aria-invalid") == "true"
    d.find_element(By.CSS_SELECTOR, "#byo-result li button").click()
    selected = d.execute_script("const a = arguments[0]; return a.value.slice(a.selectionStart, a.selectionEnd)", area)
    assert selected.strip() == '"ink": "#12",', selected
    shot(d, "06-broken-palette")
    accessible(d, "bringing a broken palette")
    d.execute_script("arguments[0].value = arguments[1]", area, '{"name": "brought", "themes": {')
    d.find_element(By.ID, "byo-audit").click()
    wait_for(lambda: "line 1, column" in d.find_element(By.ID, "byo-result").text, "the syntax error's position")
    console_is_clean(d, "bringing a broken palette")

    # A good one opens in the workbench, audited on its own (no served palette by that name).
    broken["themes"]["light"]["tokens"]["ink"] = "#767676"
    d.execute_script("arguments[0].value = arguments[1]", area, json.dumps(broken, indent=2))
    d.find_element(By.ID, "byo-audit").click()
    wait_for(lambda: d.find_element(By.ID, "workbench-title").text == "Workbench: brought (brought by you)", "the brought palette")
    wait_for(lambda: "brought: 0 of 1 checks fail" in d.find_element(By.ID, "status").text, "its audit")
    shot(d, "07-brought")
    console_is_clean(d, "auditing a brought palette")


def test_the_page_is_safe_and_its_colors_pass(server, run, tmp_path):
    status, headers, body = server.request("GET", "/")
    page = body.decode()
    assert status == 200 and headers["Content-Type"] == "text/html; charset=utf-8"
    policy = headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "default-src 'none'" in policy and "unsafe-eval" not in policy
    assert "'unsafe-inline'" not in policy.split("script-src")[1].split(";")[0]
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert "<script>" not in page and not re.search(r"<[^>]+\son[a-z]+\s*=", page), "no inline script or handlers"
    for asset, kind in (("/app.js", "text/javascript"), ("/app.css", "text/css")):
        status, headers, _ = server.request("GET", asset)
        assert status == 200 and headers["Content-Type"].startswith(kind) and headers["X-Content-Type-Options"] == "nosniff"
    # The page loads its entry module; every module it imports is served as JavaScript.
    assert '<script type="module" src="/app.js"></script>' in page
    _, _, script = server.request("GET", "/app.js")
    modules = re.findall(r"^import .* from '\./([a-z]+\.js)';$", script.decode(), re.M)
    assert len(modules) >= 4, modules
    texts = [page, script.decode()]
    for module in modules:
        status, headers, body = server.request("GET", "/" + module)
        assert status == 200 and headers["Content-Type"].startswith("text/javascript"), module
        texts.append(body.decode())
    # Nothing from anywhere else.
    for text in texts:
        assert "http://" not in text and "https://" not in text
    # The page's colors are docs/page-palette.json, and that palette passes the tool's own audit.
    assert run("audit", "docs/page-palette.json").returncode == 0
    _, _, css = server.request("GET", "/app.css")
    css = css.decode()
    palette = json.loads((ROOT / "docs" / "page-palette.json").read_text())
    dark_blocks = re.findall(r"@media \(prefers-color-scheme: dark\) \{ :root \{([^}]*)\} \}", css)
    assert len(dark_blocks) == 2, "the report's and the page's dark colors"
    light = css
    for block in dark_blocks:
        light = light.replace(block, "")
    for theme, text in (("light", light), ("dark", "".join(dark_blocks))):
        tokens = dict(palette["themes"]["light"]["tokens"])
        if theme == "dark":
            tokens.update(palette["themes"]["dark"]["tokens"])
        found = re.findall(r"--([a-z-]+): (#[0-9a-f]{6})", text)
        assert found, f"no colors found in the {theme} part of /app.css"
        for name, value in found:
            assert tokens.get(name) == value, f"{theme} --{name} is {value} in /app.css but {tokens.get(name)} in docs/page-palette.json"
    # Colors written outside the custom properties would escape the audit.
    stray = set(re.findall(r"#[0-9a-f]{6}\b", re.sub(r"--[a-z-]+: #[0-9a-f]{6}", "", css)))
    assert not stray, f"colors in /app.css outside the audited custom properties: {stray}"


def test_names_are_escaped_on_the_page_and_reachable(binary, tmp_path):
    evil = {"name": "<img src=x onerror=alert(1)>", "description": "<script>alert(2)</script>",
            "themes": {"<b>t</b>": {"tokens": {"x": "#000", "y": "#fff"}}},
            "checks": [{"foreground": "x", "background": "y"}]}
    palettes = tmp_path / "palettes"
    palettes.mkdir()
    (palettes / "evil.json").write_text(json.dumps(evil))
    slash = {"name": "acme/brand ü", "themes": {"light": {"tokens": {"x": "#333", "y": "#fff"}}},
             "checks": [{"foreground": "x", "background": "y"}]}
    (palettes / "slash.json").write_text(json.dumps(slash))
    s = Server(binary, str(palettes))
    try:
        status, _, body = s.request("GET", "/")
        page = body.decode()
        assert status == 200
        assert "<img src=x" not in page and "<script>alert" not in page and "<b>t</b>" not in page
        assert "&lt;img src=x onerror=alert(1)&gt;" in page
        assert 'href="/v1/palettes/%3Cimg%20src%3Dx%20onerror%3Dalert%281%29%3E/audit"' in page
        # Every name's link leads to its report, even a name with a "/" (sent as %2F).
        for href in re.findall(r'<a class="name open-palette" href="([^"]+)"', page):
            status, _, report = s.request("GET", href, headers={"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"})
            assert status == 200 and b"<!doctype html>" in report.lower(), href
        assert 'href="/v1/palettes/acme%2Fbrand%20%C3%BC/audit"' in page
        status, _, document = s.request("GET", "/v1/palettes/acme%2fbrand%20%c3%bc")
        assert status == 200 and json.loads(document)["name"] == "acme/brand ü"
        status, _, problem = s.request("GET", "/v1/palettes/acme/brand%20%C3%BC")
        assert status == 404 and "no resource at /v1/palettes/acme/brand ü" in json.loads(problem)["detail"]
    finally:
        assert s.stop() == 0


def test_a_brought_tokens_file_keeps_its_color_objects(server, browser):
    """A DTCG color object written over by a fix stays a DTCG color object, with its own fields."""
    from selenium.webdriver.common.by import By
    d = browser
    d.get(server.base + "/#palette=nope")
    wait_for(lambda: "no palette named" in d.find_element(By.ID, "page-status").text, "the message about an unknown palette")
    assert d.find_element(By.ID, "workbench").get_attribute("hidden") is not None
    tokens = {"name": "dtcg", "tokens": {
        "ink": {"$type": "color", "$value": {"colorSpace": "srgb", "components": [0.6, 0.6, 0.6]}},
        "paper": {"$type": "color", "$value": "#ffffff"}},
        "checks": [{"id": "body", "foreground": "ink", "background": "paper"}]}
    area = d.find_element(By.ID, "byo-text")
    d.execute_script("arguments[0].value = arguments[1]", area, json.dumps(tokens, indent=2))
    d.find_element(By.ID, "byo-audit").click()
    wait_for(lambda: "dtcg: 1 of 1 checks fail" in d.find_element(By.ID, "status").text, "the audit of the brought file")
    assert d.find_element(By.ID, "workbench-title").text == "Workbench: dtcg (brought by you)"
    # The editor is drawn from the tokens answer, which may come after the audit's status.
    ink_field = wait_for(lambda: d.find_element(By.CSS_SELECTOR, '#editor .token[data-token="ink"] input[type=text]'), "the ink field")
    assert ink_field.get_attribute("value") == "#999999", "a color object is shown as its hex"
    fix = wait_for(lambda: d.find_element(By.CSS_SELECTOR, '#audit-view tr[data-check="body"] .fix[role=button]'), "a fix")
    value = changes_of(fix)[0]["value"]
    fix.click()
    wait_for(lambda: "dtcg: 0 of 1 checks fail" in d.find_element(By.ID, "status").text, "the fixed audit")
    d.find_element(By.ID, "download-palette").click()
    saved = json.loads(downloaded(d, "dtcg.json").read_text())
    ink = saved["tokens"]["ink"]["$value"]
    assert ink["colorSpace"] == "srgb" and "hex" not in ink and "alpha" not in ink, "no field added: %s" % ink
    assert [round(c * 255) for c in ink["components"]] == [int(value[i:i + 2], 16) for i in (1, 3, 5)]
    shot(d, "08-dtcg-fixed")
    # Typed a character at a time, a hex is a string while it is partial and an object again
    # once it is whole.
    from selenium.webdriver.common.keys import Keys
    ink_field = wait_for(lambda: d.find_element(By.CSS_SELECTOR, '#editor .token[data-token="ink"] input[type=text]'), "the ink field")
    ink_field.send_keys(Keys.CONTROL, "a")
    for key in "#222222":
        ink_field.send_keys(key)
    wait_for(lambda: "dtcg: 0 of 1 checks fail" in d.find_element(By.ID, "status").text
             and json.loads(d.find_element(By.ID, "byo-text").get_attribute("value"))["tokens"]["ink"]["$value"].get("components") == [34 / 255] * 3,
             "the typed color audited")
    # The edit is kept in the text box too, so it is not lost when something else is opened.
    leaving = "const e = new Event('beforeunload', {cancelable: true}); window.dispatchEvent(e); return e.defaultPrevented;"
    assert d.execute_script(leaving) is True, "the typed edit is not downloaded yet"
    d.find_element(By.CSS_SELECTOR, '.palette-list > li[data-palette="train"] a.open-palette').click()
    wait_for(lambda: d.find_element(By.ID, "workbench-title").text == "Workbench: train", "train")
    assert d.execute_script(leaving) is True, "the brought edit is still only in the text box"
    d.find_element(By.ID, "byo-audit").click()
    wait_for(lambda: d.find_element(By.ID, "workbench-title").text == "Workbench: dtcg (brought by you)", "the brought file again")
    wait_for(lambda: d.find_element(By.CSS_SELECTOR, '#editor .token[data-token="ink"] input[type=text]').get_attribute("value") == "#222222",
             "the brought edit in the editor again")
    (d.downloads / "dtcg.json").unlink()
    d.find_element(By.ID, "download-palette").click()
    again = json.loads(downloaded(d, "dtcg.json").read_text())
    assert again["tokens"]["ink"]["$value"] == {"colorSpace": "srgb", "components": [34 / 255] * 3}, again["tokens"]["ink"]
    assert d.execute_script(leaving) is False, "downloaded: nothing to lose"
    # The palette list still opens from the address.
    d.get(server.base + "/#palette=train")
    wait_for(lambda: d.find_element(By.ID, "workbench-title").text == "Workbench: train", "train, opened from the address")
    assert d.title == "train · contrast"
    # The page in dark mode, for people to look at (its dark colors are audited with the palette).
    d.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    wait_for(lambda: d.execute_script("return getComputedStyle(document.body).backgroundColor") == "rgb(13, 17, 23)", "dark mode")
    shot(d, "09-train-dark")
    accessible(d, "the page in dark mode")
    console_is_clean(d, "the tokens file and the address")


def test_a_color_object_edit_changes_only_its_own_values(server, browser):
    """A multi-line DTCG color object keeps its layout, key order and fields (`"alpha": 1`
    included) through a fix and through a hex typed a key at a time: the download differs from
    the original by the component and hex lines alone."""
    import difflib
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    d = browser
    d.get(server.base + "/")
    tokens = {"name": "dtcg-layout", "tokens": {
        "ink": {"$type": "color", "$value": {"colorSpace": "srgb", "components": [0.6, 0.6, 0.6], "alpha": 1, "hex": "#999999"}},
        "paper": {"$type": "color", "$value": "#ffffff"}},
        "checks": [{"id": "body", "foreground": "ink", "background": "paper"}]}
    original = json.dumps(tokens, indent=2) + "\n"
    area = d.find_element(By.ID, "byo-text")
    d.execute_script("arguments[0].value = arguments[1]", area, original)
    d.find_element(By.ID, "byo-audit").click()
    wait_for(lambda: "dtcg-layout: 1 of 1 checks fail" in d.find_element(By.ID, "status").text, "the audit of the brought file")
    fix = wait_for(lambda: d.find_element(By.CSS_SELECTOR, '#audit-view tr[data-check="body"] .fix[data-fix="foreground"][role=button]'), "the text fix")
    value = changes_of(fix)[0]["value"]
    fix.click()
    wait_for(lambda: "dtcg-layout: 0 of 1 checks fail" in d.find_element(By.ID, "status").text, "the fixed audit")

    def changed_lines(text):
        diff = difflib.unified_diff(original.splitlines(), text.splitlines(), lineterm="", n=0)
        return [line for line in diff if line[:1] in "+-" and not line.startswith(("+++", "---"))]

    def expected(hex_value):
        """The original with the components and the hex of that color, laid out as before."""
        edited = json.loads(original)
        edited["tokens"]["ink"]["$value"].update(components=[int(hex_value[i:i + 2], 16) / 255 for i in (1, 3, 5)], hex=hex_value)
        return json.dumps(edited, indent=2) + "\n"

    d.find_element(By.ID, "download-palette").click()
    saved = downloaded(d, "dtcg-layout.json").read_text()
    assert saved == expected(value), changed_lines(saved)
    assert len(changed_lines(saved)) == 8, "three components and the hex, before and after"
    # Typed a key at a time: a partial hex is a string for a moment, and the whole one is the
    # object again, as it was laid out.
    field = wait_for(lambda: d.find_element(By.CSS_SELECTOR, '#editor .token[data-token="ink"] input[type=text]'), "the ink field")
    field.send_keys(Keys.CONTROL, "a")
    for key in "#222222":
        field.send_keys(key)
    wait_for(lambda: '"hex": "#222222"' in d.find_element(By.ID, "byo-text").get_attribute("value")
             and "dtcg-layout: 0 of 1 checks fail" in d.find_element(By.ID, "status").text, "the typed color audited")
    (d.downloads / "dtcg-layout.json").unlink()
    d.find_element(By.ID, "download-palette").click()
    typed = downloaded(d, "dtcg-layout.json").read_text()
    assert typed == expected("#222222"), changed_lines(typed)
    assert len(changed_lines(typed)) == 8
    assert '"alpha": 1' in typed
    accessible(d, "a color object edited in place")
    console_is_clean(d, "a color object edited in place")


def test_edits_survive_opening_another_palette(server, browser):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    d = browser
    d.get(server.base + "/#palette=peptide-fox")
    field_css = '#editor fieldset[data-theme="dark"] .token[data-token="text.body"] input[type=text]'
    field = wait_for(lambda: d.find_element(By.CSS_SELECTOR, field_css), "the dark text.body field")
    wait_for(lambda: "0 regressions" in d.find_element(By.ID, "status").text, "the first audit")
    leaving = "const e = new Event('beforeunload', {cancelable: true}); window.dispatchEvent(e); return e.defaultPrevented;"
    assert d.execute_script(leaving) is False, "nothing to lose yet"
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys("#475569")
    wait_for(lambda: "1 regression" in d.find_element(By.ID, "status").text or "2 regressions" in d.find_element(By.ID, "status").text,
             "the dark regression")
    assert d.execute_script(leaving) is True, "leaving would lose the edit: the browser asks"
    d.find_element(By.CSS_SELECTOR, '.palette-list > li[data-palette="train"] a.open-palette').click()
    wait_for(lambda: d.find_element(By.ID, "workbench-title").text == "Workbench: train", "train")
    assert d.execute_script(leaving) is True, "peptide-fox's edit is still unsaved"
    d.find_element(By.CSS_SELECTOR, '.palette-list > li[data-palette="peptide-fox"] a.open-palette').click()
    wait_for(lambda: "earlier edits of peptide-fox are back" in d.find_element(By.ID, "status").text, "the draft restored")
    wait_for(lambda: d.find_element(By.CSS_SELECTOR, field_css).get_attribute("value") == "#475569", "the edited value")
    edited = [(r.get_attribute("data-theme"), r.get_attribute("data-token")) for r in d.find_elements(By.CSS_SELECTOR, "#editor .token.changed")]
    assert edited == [("dark", "text.body")], f"only the edited token is marked: {edited}"
    wait_for(lambda: "regression" in d.find_element(By.ID, "status").text and "0 regressions" not in d.find_element(By.ID, "status").text,
             "the restored edit audited again")
    # Undoing edits that were not downloaded asks first; saying no keeps them.
    d.find_element(By.ID, "revert").click()
    alert = wait_for(lambda: d.switch_to.alert, "the question before undoing")
    assert "not downloaded" in alert.text
    alert.dismiss()
    assert d.find_element(By.CSS_SELECTOR, field_css).get_attribute("value") == "#475569"
    d.find_element(By.ID, "download-palette").click()
    downloaded(d, "peptide-fox.json")
    assert d.execute_script(leaving) is False, "downloaded: nothing to lose"
    d.find_element(By.ID, "revert").click()
    wait_for(lambda: d.find_element(By.CSS_SELECTOR, field_css).get_attribute("value") == "#e2e8f0", "the served value back")
    console_is_clean(d, "switching palettes with edits")


@pytest.mark.parametrize("shape", ["flat", "nested", "crlf"])
def test_fixing_a_theme_overrides_what_it_inherits(server, browser, shape, tmp_path):
    """Dark inherits its text color from light; fixing dark adds an override to dark, and light keeps its color."""
    from selenium.webdriver.common.by import By
    d = browser
    if shape in ("flat", "crlf"):
        light = {"ink": "#555555", "paper": "#ffffff"}
        dark = {"paper": "#333333"}
    else:
        gray = {"colorSpace": "srgb", "components": [1 / 3, 1 / 3, 1 / 3], "hex": "#555555"}
        light = {"ink": {"body": {"$type": "color", "$value": gray}}, "paper": {"$type": "color", "$value": "#ffffff"}}
        dark = {"paper": {"$type": "color", "$value": "#333333"}}
    ink = "ink.body" if shape == "nested" else "ink"
    palette = {"name": "inherits", "themes": {"light": {"tokens": light}, "dark": {"extends": "light", "tokens": dark}},
               "checks": [{"id": "body", "foreground": ink, "background": "paper"}]}
    d.get(server.base + "/")
    area = d.find_element(By.ID, "byo-text")
    text = json.dumps(palette, indent=2)
    if shape == "crlf":  # chosen as a file: a text box would turn its line ends into LF
        chosen = tmp_path / "inherits.json"
        chosen.write_bytes(text.replace("\n", "\r\n").encode())
        d.find_element(By.ID, "byo-file").send_keys(str(chosen))
    else:
        d.execute_script("arguments[0].value = arguments[1]", area, text)
        d.find_element(By.ID, "byo-audit").click()
    wait_for(lambda: "inherits: 1 of 2 checks fail" in d.find_element(By.ID, "status").text, "dark failing")
    fix = wait_for(lambda: d.find_element(By.CSS_SELECTOR, '#audit-view tr[data-theme="dark"][data-check="body"] .fix[role=button]'), "dark's fix")
    assert "in theme dark only" in fix.get_attribute("aria-label")
    fix_value = changes_of(fix)[0]["value"]
    fix.click()
    wait_for(lambda: "inherits: 0 of 2 checks fail" in d.find_element(By.ID, "status").text, "both themes passing")
    # The override shows in dark's editor, marked as an edit.
    row = wait_for(lambda: d.find_element(By.CSS_SELECTOR, f'#editor fieldset[data-theme="dark"] .token[data-token="{ink}"]'), "the override in the editor")
    assert "changed" in row.get_attribute("class")
    d.find_element(By.ID, "download-palette").click()
    raw = downloaded(d, "inherits.json").read_bytes()
    saved = json.loads(raw)
    assert saved["themes"]["light"]["tokens"] == light
    if shape == "crlf":
        assert raw.count(b"\n") == raw.count(b"\r\n") > 10, "the override keeps the file's CRLF line ends"
    if shape != "nested":
        assert set(saved["themes"]["dark"]["tokens"]) == {"paper", "ink"}
    else:
        override = saved["themes"]["dark"]["tokens"]["ink"]["body"]
        assert override["$type"] == "color" and override["$value"]["colorSpace"] == "srgb", "an object overrides an object"
        assert override["$value"]["hex"] == fix_value and len(override["$value"]["components"]) == 3
    console_is_clean(d, f"overriding an inherited token ({shape})")


def test_a_brought_stylesheet_is_edited_in_place(server, browser, tmp_path):
    """A .css file chosen in "Bring your own": its custom properties by theme, each editable; an
    edit replaces exactly that declaration's value (the span the service reports), and the
    downloaded stylesheet differs from the original by that value alone."""
    from selenium.webdriver.common.by import By
    d = browser
    d.get(server.base + "/")
    chosen = tmp_path / "globals.css"
    original = (":root { --fg: #767676 !important; /* é */ --bg: #ffffff; --gap: 1rem; }\r\n"
                "@media (prefers-color-scheme: dark) { :root { --fg: light-dark(#000, #8b949e); --bg: #0d1117; } }\r\n")
    chosen.write_bytes(original.encode())
    d.find_element(By.ID, "byo-file").send_keys(str(chosen))
    wait_for(lambda: d.find_element(By.ID, "workbench-title").text == "Workbench: globals (brought by you)", "the brought stylesheet")
    legends = wait_for(lambda: [e.text for e in d.find_elements(By.CSS_SELECTOR, "#editor legend")] or None, "the themes")
    assert legends == ["light", "dark"]
    wait_for(lambda: "globals" in d.find_element(By.ID, "status").text, "the audit of the stylesheet")
    # The light --fg is !important, so dark takes it too: both rows show the value as written.
    fields = d.find_elements(By.CSS_SELECTOR, '#editor .token[data-token="bg"] input[type=text]')
    assert [f.get_attribute("value") for f in fields] == ["#ffffff", "#0d1117"]
    assert all(f.get_attribute("readonly") is None for f in d.find_elements(By.CSS_SELECTOR, "#editor input[type=text]"))
    accessible(d, "opening a brought stylesheet")
    d.execute_script(COUNT_REQUESTS)
    edit_once(d, fields[1], "#161b22")
    wait_for(lambda: d.execute_script("return window.contrastRequests.length") == 2
             and d.find_elements(By.CSS_SELECTOR, "#audit-view:not(.stale) table"), "the edit audited")
    assert d.execute_script("return window.contrastRequests") == ["POST /v1/tokens", "POST /v1/audit"], "one listing and one audit per edit"
    assert "changed" in d.find_element(By.CSS_SELECTOR, '#editor fieldset[data-theme="dark"] .token[data-token="bg"]').get_attribute("class")
    d.find_element(By.ID, "download-palette").click()
    saved = downloaded(d, "globals.css").read_bytes()
    assert saved == original.replace("--bg: #0d1117;", "--bg: #161b22;").encode(), saved
    console_is_clean(d, "editing a brought stylesheet")


@pytest.fixture
def site(binary, tmp_path):
    """A service holding one stylesheet with its sidecar checks. Requested before `browser`,
    so the browser quits (closing its connections) before the server is stopped."""
    palettes = tmp_path / "served"
    palettes.mkdir()
    (palettes / "site.css").write_text(":root { --fg: #595959; --bg: #ffffff; }\n.dark { --fg: #8b949e; --bg: #0d1117; }\n")
    (palettes / "site.checks.json").write_text(json.dumps({"checks": [{"id": "body", "foreground": "--fg", "background": "--bg"}]}))
    s = Server(binary, str(palettes), "--threads", "2")
    yield s
    logs = s.logs()
    assert s.stop() == 0, logs


def test_a_served_stylesheet_is_edited_and_its_proposal_audited(site, browser):
    """A stylesheet the service holds, with its sidecar checks, opened from the list and edited:
    the proposal's audit shows the regression the edit makes."""
    from selenium.webdriver.common.by import By
    s = site
    d = browser
    d.get(s.base + "/#palette=site")
    wait_for(lambda: "0 still failing, against the served palette site" in d.find_element(By.ID, "status").text, "the served stylesheet's audit")
    assert [e.text for e in d.find_elements(By.CSS_SELECTOR, "#editor legend")] == ["light", "dark"]
    assert d.find_element(By.CSS_SELECTOR, '.palette-list > li[data-palette="site"]').get_attribute("data-file") == "site.css"
    field = d.find_element(By.CSS_SELECTOR, '#editor fieldset[data-theme="light"] .token[data-token="fg"] input[type=text]')
    assert field.get_attribute("readonly") is None and field.get_attribute("value") == "#595959"
    d.execute_script(COUNT_REQUESTS)
    edit_once(d, field, "#aaaaaa")
    wait_for(lambda: "1 regression" in d.find_element(By.ID, "status").text, "the regression of body in light")
    requests = d.execute_script("return window.contrastRequests")
    assert requests == ["POST /v1/tokens", "POST /v1/palettes/site/proposals"], requests
    row = d.find_element(By.CSS_SELECTOR, '#audit-view tr[data-theme="light"][data-check="body"]')
    assert row.get_attribute("data-verdict") == "fail" and row.get_attribute("data-regressed") == "true"
    accessible(d, "a regression in a served stylesheet")
    # Its fix goes to the declaration, as a fix to a token file goes to the token.
    fix = wait_for(lambda: d.find_element(By.CSS_SELECTOR, '#audit-view tr[data-theme="light"][data-check="body"] .fix[role=button]'), "a fix")
    change = changes_of(fix)[0]
    assert change["pointer"] == "/:root/--fg", change
    fix.click()
    wait_for(lambda: d.find_element(By.CSS_SELECTOR, '#audit-view:not(.stale) tr[data-theme="light"][data-check="body"]').get_attribute("data-verdict") == "pass",
             "the fix audited")
    assert field.get_attribute("value") == change["value"]
    d.find_element(By.ID, "download-palette").click()
    saved = downloaded(d, "site.css").read_text()
    assert saved == f":root {{ --fg: {change['value']}; --bg: #ffffff; }}\n.dark {{ --fg: #8b949e; --bg: #0d1117; }}\n"
    console_is_clean(d, "editing a served stylesheet")


def test_a_json5_tokens_file_is_edited_in_place(server, browser, tmp_path):
    """A JSON5 tokens file (comments, unquoted keys, single quotes, trailing commas) is edited
    at the spans the service reports: exactly the edited value changes, and the audit is of the
    edited file."""
    from selenium.webdriver.common.by import By
    d = browser
    d.get(server.base + "/")
    original = """// brand tokens
{
  tokens: {
    ink: { $type: 'color', $value: '#999999', }, // gray, too pale
    paper: {$type: "color", $value: {colorSpace: 'srgb', components: [1, 1, 1], hex: '#ffffff'}},
    'café': { $type: 'color', $value: "#000" },
  },
  checks: [{id: 'body', foreground: 'ink', background: "paper"},],
}
"""
    chosen = tmp_path / "brand.json5"
    chosen.write_text(original)
    d.find_element(By.ID, "byo-file").send_keys(str(chosen))
    wait_for(lambda: "brand: 1 of 1 checks fail" in d.find_element(By.ID, "status").text, "the audit of the JSON5 file")
    ink = wait_for(lambda: d.find_element(By.CSS_SELECTOR, '#editor .token[data-token="ink"] input[type=text]'), "the ink field")
    assert ink.get_attribute("value") == "#999999"
    d.execute_script(COUNT_REQUESTS)
    edit_once(d, ink, "#333333")
    wait_for(lambda: "brand: 0 of 1 checks fail" in d.find_element(By.ID, "status").text, "the edit audited")
    assert d.execute_script("return window.contrastRequests") == ["POST /v1/tokens", "POST /v1/audit"], "one listing and one audit per edit"
    row = d.find_element(By.CSS_SELECTOR, '#audit-view tr[data-check="body"]')
    assert row.get_attribute("data-verdict") == "pass" and "#333333" in row.get_attribute("innerHTML")
    # The color object is edited as one too, and the file keeps everything else.
    paper = d.find_element(By.CSS_SELECTOR, '#editor .token[data-token="paper"] input[type=text]')
    assert paper.get_attribute("value") == "#ffffff"
    edit_once(d, paper, "#fafafa")
    wait_for(lambda: "brand: 0 of 1 checks fail" in d.find_element(By.ID, "status").text
             and not d.find_elements(By.CSS_SELECTOR, "#audit-view.stale"), "the second edit audited")
    d.find_element(By.ID, "download-palette").click()
    saved = downloaded(d, "brand.json5").read_text()
    expected = original.replace("$value: '#999999'", '$value: "#333333"').replace(
        "{colorSpace: 'srgb', components: [1, 1, 1], hex: '#ffffff'}",
        "{colorSpace: 'srgb', components: [0.9803921568627451, 0.9803921568627451, 0.9803921568627451], hex: '#fafafa'}")
    assert saved == expected, saved
    d.find_element(By.ID, "download-audit-json").click()
    audit = json.loads(downloaded(d, "brand-audit.json").read_text())
    result = audit["palettes"][0]["themes"][0]["results"][0]
    assert result["foreground"]["hex"] == "#333333" and result["background"]["hex"] == "#fafafa", result
    accessible(d, "editing a JSON5 file")
    console_is_clean(d, "editing a JSON5 file")


def test_the_workbench_can_be_viewed_as_each_deficiency_sees_it(server, browser):
    """"View as" repaints every swatch of the workbench with the colors the service simulates
    (POST /v1/simulate): the page has no simulation of its own."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select
    d = browser
    d.get(server.base + "/#palette=peptide-fox")
    wait_for(lambda: d.find_elements(By.CSS_SELECTOR, '#audit-view tr[data-theme="light"][data-check="badges[red vs emerald]"]'),
             "the audit of peptide-fox with its badge group")
    row = d.find_element(By.CSS_SELECTOR, '#audit-view tr[data-theme="light"][data-check="badges[red vs emerald]"]')
    chips = row.find_elements(By.CSS_SELECTOR, "td:first-child .chip")
    def rgb(hex_):
        return "rgb(%d, %d, %d)" % tuple(int(hex_[i:i + 2], 16) for i in (1, 3, 5))
    normal = [c.get_attribute("style") for c in chips]
    assert rgb("#fee2e2") in normal[0] and rgb("#d1fae5") in normal[1], normal
    shot(d, "20-normal-vision")
    Select(d.find_element(By.ID, "vision")).select_by_value("deuteranopia")
    wait_for(lambda: d.find_element(By.ID, "workbench").get_attribute("data-vision") == "deuteranopia", "the deuteranopia view")
    status, _, simulated = server.json("POST", "/v1/simulate", {"colors": ["#fee2e2", "#d1fae5"], "deficiencies": ["deuteranopia"]})
    assert status == 200
    red, emerald = simulated["visions"][0]["colors"]
    seen = [c.get_attribute("style") for c in row.find_elements(By.CSS_SELECTOR, "td:first-child .chip")]
    assert rgb(red) in seen[0] and rgb(emerald) in seen[1], (seen, red, emerald)
    # The group table shows the same: as a deuteranope sees them, red and emerald are one color.
    assert "Group badges of peptide-fox in light, as each vision sees it" in d.find_element(By.ID, "audit-view").text
    shot(d, "21-deuteranopia")
    accessible(d, "viewing as deuteranopia")
    console_is_clean(d, "viewing as deuteranopia")
    # Back to normal vision: every style as it was.
    Select(d.find_element(By.ID, "vision")).select_by_value("")
    wait_for(lambda: d.find_element(By.ID, "workbench").get_attribute("data-vision") is None, "normal vision again")
    assert [c.get_attribute("style") for c in row.find_elements(By.CSS_SELECTOR, "td:first-child .chip")] == normal


def test_badge_colors_are_editable_and_their_fixes_applicable(server, browser):
    """Peptide Fox's badges are in its file: every badge fix is a button that writes the badge's
    own color, and the badge's colors have rows in the editor."""
    from selenium.webdriver.common.by import By
    d = browser
    d.get(server.base + "/#palette=peptide-fox")
    wait_for(lambda: d.find_elements(By.CSS_SELECTOR, '#audit-view:not(.stale) tr[data-check="badge:red"] .fix'), "the badge fixes")
    fixes = d.find_elements(By.CSS_SELECTOR, '#audit-view tr[data-check^="badge:"] .fix[data-fix]')
    assert len(fixes) == 16, len(fixes)
    disabled = [f.get_attribute("aria-label") for f in fixes if f.get_attribute("aria-disabled") == "true"]
    assert not disabled, disabled
    assert all(f.get_attribute("role") == "button" for f in fixes)
    row = d.find_element(By.CSS_SELECTOR, '#editor .token[data-pointer="/badges/4/text"] input[type=text]')
    assert row.get_attribute("value") == "#991b1b"
    fix = d.find_element(By.CSS_SELECTOR, '#audit-view tr[data-theme="light"][data-check="badge:red"] .fix[data-fix="foreground"]')
    change = changes_of(fix)
    assert [c["pointer"] for c in change] == ["/badges/4/text"], change
    assert "fixes this" in fix.get_attribute("aria-label"), fix.get_attribute("aria-label")
    fix.click()
    wait_for(lambda: d.find_element(By.CSS_SELECTOR, '#audit-view:not(.stale) tr[data-theme="light"][data-check="badge:red"]').get_attribute("data-verdict") == "pass",
             "the red badge to pass")
    assert d.find_element(By.CSS_SELECTOR, '#editor .token[data-pointer="/badges/4/text"] input[type=text]').get_attribute("value") == change[0]["value"]
    d.find_element(By.ID, "download-palette").click()
    saved = downloaded(d, "peptide-fox.json").read_text()
    original = (ROOT / "palettes" / "peptide-fox.json").read_text()
    assert saved == original.replace('"text": "#991b1b"', f'"text": "{change[0]["value"]}"', 1)
    shot(d, "30-badge-fixed")
    accessible(d, "applying a badge fix")
    console_is_clean(d, "applying a badge fix")


def test_a_fix_says_what_else_it_breaks_before_the_click(server, browser):
    """trAIn's inactive progress segments fail on the app background; the nearest background
    repaints the app background mid-gray. Before any click the page says that fix breaks body
    text (15.96 → 4.34), lists the fixes that break least first and marks the breaking ones."""
    from selenium.webdriver.common.by import By
    d = browser
    d.get(server.base + "/#palette=train")
    css = '#audit-view:not(.stale) tr[data-check="progress-inactive-on-background"] .fix-item'
    items = wait_for(lambda: d.find_elements(By.CSS_SELECTOR, css), "the fixes with their effects")
    kinds = [i.find_element(By.CSS_SELECTOR, ".fix").get_attribute("data-fix") for i in items]
    assert kinds[-1] == "background", kinds
    background = items[-1]
    assert "breaking" in background.get_attribute("class")
    note = background.find_element(By.CSS_SELECTOR, ".effect").text
    assert "fixes this" in note and "breaks body-text-on-background (15.96 → 4.34)" in note, note
    # Every fix of this check breaks something: the ones that break least come first.
    first = items[0].find_element(By.CSS_SELECTOR, ".effect").text
    assert "breaks progress-active-on-track (4.34 → " in first, first
    swatch = background.find_element(By.CSS_SELECTOR, ".fix")
    assert "breaks body-text-on-background" in swatch.get_attribute("aria-label")
    shot(d, "31-fix-effects")
    docs_shot(d, "fix-effects", '#audit-view tr[data-check="progress-inactive-on-background"]')
    accessible(d, "a fix that breaks others")
    console_is_clean(d, "a fix that breaks others")


def test_any_two_colors_at_the_top(server, browser, run):
    """The two-color box measures any two CSS colors through /v1/contrast and /v1/suggest, with
    no palette: a translucent text as drawn, light-dark() in both schemes, color-mix(), and its
    nearest fixes, one click each."""
    from selenium.webdriver.common.by import By
    d = browser
    d.get(server.base + "/")
    fg, bg = d.find_element(By.ID, "pair-fg"), d.find_element(By.ID, "pair-bg")
    edit_once(d, fg, "rgb(255 255 255 / 0.1)")
    edit_once(d, bg, "black")
    expected = json.loads(run("check", "rgb(255 255 255 / 0.1)", "black", "--format", "json").stdout)["display"]
    result = wait_for(lambda: expected in d.find_element(By.ID, "pair-result").text and d.find_element(By.ID, "pair-result"), "the translucent pair")
    assert "measured as drawn: #1a1a1a on #000000" in result.text, result.text
    specimen = result.find_element(By.CSS_SELECTOR, ".pair-specimen")
    assert "rgb(26, 26, 26)" in specimen.get_attribute("style"), "drawn composited, as measured"
    assert "APCA Lc" in result.text and "Large text" in result.text and "FAIL" in result.text
    fix = result.find_element(By.CSS_SELECTOR, 'button[data-field="pair-fg"]')
    fix.click()
    wait_for(lambda: "no fix needed" in d.find_element(By.ID, "pair-result").text, "the fixed pair to pass")
    accessible(d, "the two-color box")
    edit_once(d, fg, "light-dark(#333333, #eeeeee)")
    edit_once(d, bg, "light-dark(white, color-mix(in srgb, black 90%, white))")
    wait_for(lambda: len(d.find_elements(By.CSS_SELECTOR, "#pair-result .pair-scheme")) == 2, "both schemes")
    schemes = [e.get_attribute("data-scheme") for e in d.find_elements(By.CSS_SELECTOR, "#pair-result .pair-scheme")]
    assert sorted(schemes) == ["dark", "light"], schemes
    shot(d, "32-two-colors")
    console_is_clean(d, "the two-color box")
    # A color that does not parse is refused with the parser's words (the browser logs the 400).
    edit_once(d, bg, "nope")
    wait_for(lambda: "'nope'" in d.find_element(By.ID, "pair-result").text, "the parser's message")


def test_a_proposal_is_sent_as_a_link(server, browser, tmp_path):
    """The palette and its edits are in the address: the link, opened in a new browser session,
    shows the same edited verdicts. A link whose edits do not decode is refused, saying why."""
    from selenium.webdriver.common.by import By
    d = browser
    d.get(server.base + "/#palette=peptide-fox")
    field = wait_for(lambda: d.find_element(By.CSS_SELECTOR, '#editor fieldset[data-theme="light"] .token[data-token="text.body"] input[type=text]'), "the editor")
    wait_for(lambda: "0 regressions" in d.find_element(By.ID, "status").text, "the first audit")
    edit_once(d, field, PALE_GRAY)
    css = '#changes section[data-theme="light"] ul.regressed li'
    seen = wait_for(lambda: [li.text for li in d.find_elements(By.CSS_SELECTOR, css) if li.text.startswith("body-text-on-page:")], "the regression")
    link = wait_for(lambda: "&edits=" in d.current_url and d.current_url, "the edits in the address")
    assert len(link) < 2000, len(link)
    other = make_browser(tmp_path / "other-downloads")
    try:
        other.get(link)
        again = wait_for(lambda: [li.text for li in other.find_elements(By.CSS_SELECTOR, css) if li.text.startswith("body-text-on-page:")], "the regression from the link")
        assert again == seen, (again, seen)
        value = other.find_element(By.CSS_SELECTOR, '#editor fieldset[data-theme="light"] .token[data-token="text.body"] input[type=text]').get_attribute("value")
        assert value == PALE_GRAY
        assert "The link's edits of peptide-fox are applied" in other.find_element(By.ID, "status").text
        console_is_clean(other, "opening a shared link")
        broken = link[:-12] + "!!" + link[-10:]
        other.get(server.base + "/")
        other.get(broken)
        message = wait_for(lambda: "This link is refused" in other.find_element(By.ID, "page-status").text
                           and other.find_element(By.ID, "page-status").text, "the refusal")
        assert "do not decode" in message or "did not write" in message, message
    finally:
        other.quit()


def test_translucent_colors_are_drawn_as_measured(server, browser):
    """White at 10 % alpha on black is painted with its alpha over what it is measured on, so
    it looks as faint as its ratio says; over a translucent background with no backdrop, over
    the worst backdrop the ratio is of. The editor shows a translucent token over a checkerboard."""
    from selenium.webdriver.common.by import By
    d = browser
    d.get(server.base + "/")
    palette = {"name": "glassy", "themes": {"dark": {"tokens": {
        "faint": "rgb(255 255 255 / 0.1)", "ink": "#000000", "glass": "rgb(0 0 0 / 0.5)"}}},
        "checks": [{"id": "faint-on-ink", "foreground": "faint", "background": "ink"},
                   {"id": "faint-on-glass", "foreground": "faint", "background": "glass"}]}
    d.execute_script("arguments[0].value = arguments[1]", d.find_element(By.ID, "byo-text"), json.dumps(palette, indent=2))
    d.find_element(By.ID, "byo-audit").click()
    wait_for(lambda: "glassy: 2 of 2 checks fail" in d.find_element(By.ID, "status").text, "the audit of the translucent palette")
    painted = "const s = getComputedStyle(arguments[0]); return [s.color, s.backgroundColor, s.backgroundImage];"

    def specimen(check):
        return d.find_element(By.CSS_SELECTOR, f'#audit-view tr[data-check="{check}"] td:first-child .swatch')

    color, background, image = d.execute_script(painted, specimen("faint-on-ink"))
    assert (color, background, image) == ("rgba(255, 255, 255, 0.1)", "rgb(0, 0, 0)", "none"), "faint, not crisp white"
    assert "#ffffff1a on #000000, drawn as #1a1a1a on #000000" in specimen("faint-on-ink").get_attribute("aria-label")
    # Over an unknown backdrop: the glass over the worst one, as the ratio is measured.
    d.find_element(By.ID, "download-audit-json").click()
    audit = json.loads(downloaded(d, "glassy-audit.json").read_text())
    glass = next(r for r in audit["palettes"][0]["themes"][0]["results"] if r["id"] == "faint-on-glass")
    worst = glass["range"]["worstBackdrop"]
    color, background, image = d.execute_script(painted, specimen("faint-on-glass"))
    assert color == "rgba(255, 255, 255, 0.1)" and "rgba(0, 0, 0, 0.5)" in image, (color, image)
    assert background == "rgb({}, {}, {})".format(*(int(worst[i:i + 2], 16) for i in (1, 3, 5))), (background, worst)
    assert f"over {worst}, the worst backdrop" in specimen("faint-on-glass").get_attribute("aria-label")
    # The editor: the translucent token over a checkerboard, the opaque one without.
    faint = d.find_element(By.CSS_SELECTOR, '#editor .token[data-token="faint"] .alpha-swatch')
    assert faint.is_displayed() and "10% opaque" in faint.get_attribute("aria-label")
    assert "conic-gradient" in d.execute_script("return getComputedStyle(arguments[0]).backgroundImage", faint)
    assert d.execute_script("return getComputedStyle(arguments[0].firstChild).backgroundColor", faint) == "rgba(255, 255, 255, 0.1)"
    assert not d.find_element(By.CSS_SELECTOR, '#editor .token[data-token="ink"] .alpha-swatch').is_displayed()
    shot(d, "33-translucent")
    docs_shot(d, "translucent", "#audit-view table.results")
    accessible(d, "translucent colors")
    console_is_clean(d, "translucent colors")


def test_a_phone_shows_a_failing_check_without_sideways_scroll(server, browser):
    """At 390 × 844 with Peptide Fox open, the page does not scroll sideways, and a failing
    check shows its sample, its colors, its ratio and its fix on screen, as a card."""
    from selenium.webdriver.common.by import By
    d = browser
    d.set_window_size(390, 844)
    d.get(server.base + "/#palette=peptide-fox")
    row = wait_for(lambda: d.find_element(By.CSS_SELECTOR, '#audit-view:not(.stale) table.results tr[data-verdict="fail"]'), "a failing check")
    assert d.execute_script("return window.innerWidth") == 390
    width, client = d.execute_script("return [document.scrollingElement.scrollWidth, document.documentElement.clientWidth]")
    assert width <= 390 and width <= client, f"the page scrolls sideways: {width} px wide in a {client} px window"
    box = "const r = arguments[0].getBoundingClientRect(); return [r.left, r.right, r.width];"

    def on_screen(element, what):
        left, right, w = d.execute_script(box, element)
        assert w > 0 and left >= 0 and right <= client, f"{what} is at {left}..{right}, outside 0..{client}"

    cells = row.find_elements(By.CSS_SELECTOR, ":scope > td")
    on_screen(cells[0].find_element(By.CSS_SELECTOR, ".swatch, .badge"), "the sample")
    for chip in cells[2].find_elements(By.CSS_SELECTOR, ".chip"):
        on_screen(chip, "a color")
    assert re.search(r"#[0-9a-f]{6}", cells[2].text), cells[2].text
    on_screen(cells[3], "the ratio")
    assert re.search(r"\d\.\d\d:1", cells[3].text), cells[3].text
    fix = cells[6].find_element(By.CSS_SELECTOR, ".fix[data-fix]")
    on_screen(fix, "the fix")
    d.execute_script("arguments[0].scrollIntoView()", row)
    shot(d, "34-phone")
    docs_shot(d, "phone")
    accessible(d, "the page on a phone")
    console_is_clean(d, "the page on a phone")


def test_the_chosen_theme_is_in_the_address(server, browser, tmp_path):
    """Choosing a theme shows its tokens, its changes and its audit only, and the address holds
    it: a reload and a new browser open the same theme."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select
    d = browser
    d.get(server.base + "/#palette=peptide-fox")
    wait_for(lambda: "0 regressions" in d.find_element(By.ID, "status").text
             and d.find_elements(By.CSS_SELECTOR, '#audit-view .theme-block[data-theme="dark"]'), "the first audit")
    Select(d.find_element(By.ID, "theme")).select_by_value("dark")
    link = wait_for(lambda: "&theme=dark" in d.current_url and d.current_url, "the theme in the address")

    def shows_dark_only(driver):
        shown = lambda css: [e.is_displayed() for e in driver.find_elements(By.CSS_SELECTOR, css)]
        return (driver.find_element(By.ID, "theme").get_attribute("value") == "dark"
                and shown('#editor fieldset[data-theme="dark"]') == [True] and shown('#editor fieldset[data-theme="light"]') == [False]
                and shown('#changes section[data-theme="dark"]') == [True] and shown('#changes section[data-theme="light"]') == [False]
                and shown('#audit-view .theme-block[data-theme="dark"]') == [True]
                and shown('#audit-view .theme-block[data-theme="light"]') == [False]
                and not any(shown('#audit-view .theme-block tr[data-theme="light"]'))
                and any(shown('#audit-view .theme-block tr[data-theme="dark"]')))

    wait_for(lambda: shows_dark_only(d), "the dark theme only")
    accessible(d, "one theme shown")
    d.refresh()
    wait_for(lambda: shows_dark_only(d), "the dark theme only, after a reload")
    other = make_browser(tmp_path / "other-downloads")
    try:
        other.get(link)
        wait_for(lambda: shows_dark_only(other), "the dark theme only, in a new browser")
        console_is_clean(other, "a link with a theme")
    finally:
        other.quit()
    # Every theme again, and the address says so.
    Select(d.find_element(By.ID, "theme")).select_by_value("")
    wait_for(lambda: "theme=" not in d.current_url, "no theme in the address")
    assert all(e.is_displayed() for e in d.find_elements(By.CSS_SELECTOR, "#editor fieldset[data-theme]"))
    console_is_clean(d, "choosing a theme")


def open_two_colors(d, server, foreground, background):
    """The page with `foreground` and `background` typed into the two-color box; its fields."""
    from selenium.webdriver.common.by import By
    d.get(server.base + "/")
    fg, bg = d.find_element(By.ID, "pair-fg"), d.find_element(By.ID, "pair-bg")
    edit_once(d, fg, foreground)
    edit_once(d, bg, background)
    return fg, bg


def slide_pair(d, run, fg, slider, step, ratio_id, what):
    """Moves `slider` to `step` (one input event) and waits until the page shows the ratio the
    CLI measures for the foreground it wrote (on white); returns that color and the CLI's answer."""
    from selenium.webdriver.common.by import By
    d.execute_script("arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input', {bubbles: true}));", slider, str(step))
    value = wait_for(lambda: fg.get_attribute("value").startswith("oklch(") and fg.get_attribute("value"), what)
    measured = json.loads(run("check", value, "#ffffff", "--format", "json").stdout)
    wait_for(lambda: d.find_element(By.ID, ratio_id).text == measured["display"]
             and measured["display"] in d.find_element(By.ID, "pair-result").text, f"the ratio at {what}")
    return value, measured


def test_a_lightness_slider_moves_the_ratio_with_the_thresholds_marked(server, browser, run):
    """The two-color box has an OKLCH lightness slider on the foreground: the WCAG 3, 4.5 and
    7 thresholds are marked on its track where the service says the pair reaches them, and the
    ratio moves with it, measured by the service (the CLI agrees on either side of a mark)."""
    from selenium.webdriver.common.by import By
    d = browser
    fg, bg = open_two_colors(d, server, "#767676", "#ffffff")
    marks = wait_for(lambda: d.find_elements(By.CSS_SELECTOR, "#pair-tune .tune-mark"), "the marks on the slider")
    slider = d.find_element(By.ID, "pair-lightness")
    assert slider.get_attribute("value") == "57", "the slider starts at the foreground's own lightness (#767676 is L 56.6 %)"
    by_threshold = {m.get_attribute("data-threshold"): int(m.get_attribute("data-lightness")) for m in marks}
    assert sorted(by_threshold) == ["3", "4.5", "7"], by_threshold
    assert by_threshold["7"] < by_threshold["4.5"] < by_threshold["3"]
    text = d.find_element(By.ID, "pair-marks-text").text
    assert f"4.5:1 at L 0\u2013{by_threshold['4.5']} %" in text, text

    def slide_to(lightness):
        value, measured = slide_pair(d, run, fg, slider, lightness, "pair-tune-ratio", f"L {lightness}")
        assert f"oklch({lightness}% " in value, value
        return measured["ratio"]

    at_mark = by_threshold["4.5"]
    assert slide_to(at_mark) >= 4.5
    assert slide_to(at_mark + 1) < 4.5
    assert d.find_element(By.ID, "pair-lightness") == slider, "the slider keeps its track while it moves"
    shot(d, "35-lightness-slider")
    docs_shot(d, "two-colors-slider", "#pair")
    accessible(d, "the lightness slider")
    console_is_clean(d, "the lightness slider")


def test_a_chroma_slider_and_apca_levels_are_marked_as_the_service_measures(server, browser, run):
    """Beside lightness, the foreground's OKLCH chroma has a slider too; both tracks mark where
    the pair reaches APCA Lc 45, 60, 75 and 90 (by the size of Lc, either polarity), and the
    chroma track where the foreground leaves sRGB. Each mark agrees with the CLI on either side
    of it, and the chroma slider moves the ratio as the CLI measures it."""
    from selenium.webdriver.common.by import By
    d = browser
    fg, bg = open_two_colors(d, server, "#2f6f4f", "#ffffff")
    levels = wait_for(lambda: d.find_elements(By.CSS_SELECTOR, "#pair-tune .tune-apca"), "the APCA marks on the lightness track")
    by_level = {m.get_attribute("data-lc"): int(m.get_attribute("data-lightness")) for m in levels}
    assert set(by_level) <= {"45", "60", "75", "90"} and {"45", "60", "75"} <= set(by_level), by_level
    def apca(color):
        return abs(json.loads(run("check", color, "#ffffff", "--format", "json").stdout)["apca"])

    # A dark text on white reaches a level below some lightness: the mark is the last step that does.
    text = d.find_element(By.ID, "pair-marks-text").text
    for level, step in by_level.items():
        assert f"APCA Lc {level} at L 0\u2013{step} %" in text, text
    slider = d.find_element(By.ID, "pair-lightness")
    chroma = d.find_element(By.ID, "pair-chroma")
    assert chroma.get_attribute("aria-valuetext"), "the chroma slider says its value as a number of OKLCH"

    def slide(element, step, what):
        return slide_pair(d, run, fg, element, step, "pair-chroma-ratio", what)

    # The Lc 60 mark of the lightness track, on either side, as the CLI measures it.
    at = by_level["60"]
    value, _ = slide(slider, at, f"L {at}")
    assert value.startswith(f"oklch({at}% ") and apca(value) >= 60, value
    value, _ = slide(slider, at + 1, f"L {at + 1}")
    assert apca(value) < 60, value
    d.execute_script("arguments[0].dispatchEvent(new Event('change', {bubbles: true}));", slider)
    # Chroma: the slider keeps the lightness just chosen and changes only C.
    value, measured = slide(chroma, 100, "C 0.4")
    assert re.match(rf"oklch\({at + 1}% 0\.4 [0-9.]+\)", value), value
    assert "foreground" in measured.get("outOfGamut", []), "C 0.4 is outside sRGB, measured gamut-mapped"
    gamut = wait_for(lambda: d.find_elements(By.CSS_SELECTOR, "#pair-tune-chroma .tune-gamut"), "where sRGB ends on the chroma track")
    step = int(gamut[0].get_attribute("data-step"))
    inside, _ = slide(chroma, step - 1, f"C step {step - 1}")
    outside, _ = slide(chroma, step, f"C step {step}")
    assert "foreground" not in json.loads(run("check", inside, "#ffffff", "--format", "json").stdout).get("outOfGamut", []), inside
    assert "foreground" in json.loads(run("check", outside, "#ffffff", "--format", "json").stdout).get("outOfGamut", []), outside
    assert "outside sRGB" in d.find_element(By.ID, "pair-chroma-marks-text").text
    shot(d, "36-chroma-slider")
    accessible(d, "the chroma slider")
    console_is_clean(d, "the chroma slider")
