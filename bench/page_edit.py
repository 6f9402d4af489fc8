#!/usr/bin/env python3
"""Edit-to-verdict time on the designers' page, as a designer sees it: the real `contrast serve`
on a copy of palettes/ (access log on, as `make run` serves), headless Chromium opens Peptide
Fox, and each edit types a color into the light theme's `text.body` field (one input event).
The time is measured in the page, from the input event to the moment the audit view shows the
verdict of `body-text-on-page` for that color (no longer marked stale, its row's verdict and
ratio the edited color's). Edits alternate between a failing and a passing gray so every edit
changes the verdict. Prints the median and the slowest of 21 edits.
Usage: page_edit.py CONTRAST_BINARY"""
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time

EDITS = 21
# Pale gray fails body text on white (2.1:1); the original slate passes (17.85:1).
COLORS = ["#a3a3a3", "#0f172a"]

MEASURE = """
const [value, done] = [arguments[0], arguments[arguments.length - 1]];
const field = document.querySelector('#editor fieldset[data-theme="light"] .token[data-token="text.body"] input[type=text]');
const row = () => document.querySelector('#audit-view:not(.stale) tr[data-theme="light"][data-check="body-text-on-page"]');
const before = row() && row().getAttribute('data-verdict');
const start = performance.now();
field.value = value;
field.dispatchEvent(new Event('input', { bubbles: true }));
const check = () => {
  const r = row();
  if (r && r.getAttribute('data-verdict') !== before) { done(performance.now() - start); return; }
  if (performance.now() - start > 10000) { done(-1); return; }
  requestAnimationFrame(check);
};
requestAnimationFrame(check);
"""


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main():
    binary = sys.argv[1]
    os.environ["SE_OFFLINE"] = "true"
    os.environ["SE_AVOID_STATS"] = "true"
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
        from selenium.webdriver.common.by import By
    except ImportError as error:
        print(f"| edit to verdict, Peptide Fox | not measured ({error}) | < 0.5 s |")
        return
    work = tempfile.mkdtemp()
    shutil.copytree("palettes", os.path.join(work, "palettes"))
    port = free_port()
    access = open(os.path.join(work, "access.log"), "w")
    server = subprocess.Popen([binary, "serve", "--port", str(port), "--host", "127.0.0.1", "--palettes", os.path.join(work, "palettes")],
                              stdout=subprocess.DEVNULL, stderr=access)
    driver = None
    try:
        for _ in range(300):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        options = webdriver.ChromeOptions()
        options.add_argument("--headless=new")
        options.add_argument("--no-sandbox")
        options.add_argument("--window-size=1440,900")
        driver = webdriver.Chrome(service=Service(executable_path="/usr/bin/chromedriver"), options=options)
        driver.set_script_timeout(30)
        driver.get(f"http://127.0.0.1:{port}/#palette=peptide-fox")
        deadline = time.time() + 30
        while time.time() < deadline and not driver.find_elements(
                By.CSS_SELECTOR, '#audit-view:not(.stale) tr[data-theme="light"][data-check="body-text-on-page"]'):
            time.sleep(0.05)
        times = []
        for k in range(EDITS):
            milliseconds = driver.execute_async_script(MEASURE, COLORS[k % 2])
            if milliseconds < 0:
                raise RuntimeError(f"edit {k + 1}: the verdict did not change within 10 s")
            times.append(milliseconds / 1000)
        print(f"| edit to verdict, Peptide Fox (light `text.body`, {EDITS} edits, in the page) | median {statistics.median(times):.3f} s, slowest {max(times):.3f} s | < 0.5 s |")
    finally:
        if driver:
            driver.quit()
        server.terminate()
        server.wait(timeout=30)
        access.close()
        lines = sum(1 for _ in open(os.path.join(work, "access.log")))
        shutil.rmtree(work, ignore_errors=True)
        print(f"\nAccess log: {lines} lines written during the run.")


if __name__ == "__main__":
    main()
