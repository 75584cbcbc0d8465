"""Draw the installable app's PNG icons from the page's icon (``static/favicon.svg``), in
Chromium (Playwright), into the page's static folder:

- ``icon-192.png``, ``icon-512.png`` (purpose "any"): the icon as it is, its rounded
  corners transparent;
- ``icon-maskable-512.png`` (purpose "maskable") and ``apple-touch-icon.png`` (180 px, a
  phone rounds it itself): the felt colour to every edge and the die within the maskable
  safe zone (the middle circle of 80 % of the width), as a launcher's mask may cut away
  anything outside it.

    python scripts/make_icons.py
"""

from __future__ import annotations

import base64
import shutil
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
STATIC = ROOT / "src" / "yahtzee" / "web" / "static"
SVG = "http://www.w3.org/2000/svg"
SAFE_ZONE = 0.8
"""The maskable safe zone's diameter, of the width (the W3C manifest spec: radius 40 %)."""
DIE_SCALE = 0.8
"""The die's size in the full-bleed icons, of its size in favicon.svg: its rounded corners
then lie inside the safe zone (checked by `full_bleed`)."""


def full_bleed(favicon: str) -> str:
    """The icon with its background to every edge and the rest (the die) scaled about the
    middle so that it lies within the safe zone."""
    ET.register_namespace("", SVG)
    root = ET.fromstring(favicon)
    background, *die = list(root)
    x, y, width, height = (float(v) for v in root.attrib["viewBox"].split())
    face = next(e for e in die if e.tag == f"{{{SVG}}}rect")
    half = float(face.attrib["width"]) / 2 * DIE_SCALE
    corner = float(face.attrib.get("rx", "0")) * DIE_SCALE
    reach = (half - corner) * 2**0.5 + corner  # the middle to the farthest point of the face
    assert reach <= SAFE_ZONE * width / 2, f"the die reaches {reach:.1f}, past the safe zone"
    for child in list(root):
        root.remove(child)
    ET.SubElement(
        root, f"{{{SVG}}}rect",
        {"x": str(x), "y": str(y), "width": str(width), "height": str(height),
         "fill": background.attrib["fill"]},
    )  # fmt: skip
    cx, cy = x + width / 2, y + height / 2
    group = ET.SubElement(
        root,
        f"{{{SVG}}}g",
        {"transform": f"translate({cx} {cy}) scale({DIE_SCALE}) translate({-cx} {-cy})"},
    )
    group.extend(die)
    return ET.tostring(root, encoding="unicode")


def draw(page: Any, svg: str, size: int, out: Path) -> None:
    data = base64.b64encode(svg.encode()).decode()
    page.set_viewport_size({"width": size, "height": size})
    page.set_content(
        f'<html><body style="margin:0;background:transparent">'
        f'<img src="data:image/svg+xml;base64,{data}" width="{size}" height="{size}"'
        f' style="display:block"></body></html>'
    )
    page.wait_for_function("() => document.images[0].complete")
    page.screenshot(path=str(out), omit_background=True)


def main() -> None:
    favicon = (STATIC / "favicon.svg").read_text(encoding="utf-8")
    bleed = full_bleed(favicon)
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        try:
            page = browser.new_page(device_scale_factor=1)
            for svg, size, name in (
                (favicon, 192, "icon-192.png"),
                (favicon, 512, "icon-512.png"),
                (bleed, 512, "icon-maskable-512.png"),
                (bleed, 180, "apple-touch-icon.png"),
            ):
                draw(page, svg, size, STATIC / name)
                print(f"{name}: {size}x{size}", file=sys.stderr)
        finally:
            browser.close()


if __name__ == "__main__":
    main()
