#!/usr/bin/env python3
"""Writes Tests/ColorScienceTests/Vectors/cvd_vectors.json: colors as each color-vision deficiency
simulates them, from two independent implementations (not run by the tests; rerun by hand):

- DaltonLens 0.1.5 (`pip install daltonlens`): Viénot 1999 (protanopia, deuteranopia) and
  Brettel 1997 (tritanopia), Smith & Pokorny LMS with white as neutral, the library's defaults,
  evaluated in float64 on linear sRGB (its `simulate_cvd` rounds to 8 bits; the inner function
  does not), clipped to [0, 1] and encoded;
- colorspacious 1.1.2 (`pip install colorspacious`): Machado 2009 at severities 0–100,
  `cspace_convert(rgb, {"name": "sRGB1+CVD", "cvd_type": T, "severity": S}, "sRGB1")`; only
  colors whose simulation stays inside sRGB are kept (colorspacious does not clip).
"""
import datetime
from importlib.metadata import version
import json
import pathlib
import random

import colorspacious
import daltonlens
import numpy as np
from daltonlens import convert, simulate

random.seed(31)
colors = ["#ff0000", "#00ff00", "#0000ff", "#ffffff", "#000000", "#808080", "#d1242f", "#1a7f37", "#0969da",
          "#fee2e2", "#d1fae5", "#dbeafe", "#e9d5ff", "#ffb000", "#7c3aed", "#2da44e", "#cf222e"]
colors += ["#%06x" % random.randrange(0, 1 << 24) for _ in range(40)]


def rgb(hex_):
    return np.array([int(hex_[i:i + 2], 16) / 255 for i in (1, 3, 5)], dtype=np.float64)


def linear(c):
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def encode(c):
    c = np.clip(c, 0, 1)
    return np.where(c <= 0.0031308, c * 12.92, 1.055 * c ** (1 / 2.4) - 0.055)


vienot = simulate.Simulator_Vienot1999()
brettel = simulate.Simulator_Brettel1997()
kinds = {"protanopia": (vienot, simulate.Deficiency.PROTAN), "deuteranopia": (vienot, simulate.Deficiency.DEUTAN),
         "tritanopia": (brettel, simulate.Deficiency.TRITAN)}
dichromacy = []
for name, (simulator, deficiency) in kinds.items():
    for hex_ in colors:
        lin = linear(rgb(hex_)).reshape(1, 1, 3).copy()
        out = simulator._simulate_dichromacy_linear_rgb(lin, deficiency).reshape(3)
        dichromacy.append({"deficiency": name, "color": hex_, "simulated": [round(float(v), 9) for v in encode(out)]})

anomaly = []
for name in ("protanomaly", "deuteranomaly", "tritanomaly"):
    for severity in (0, 25, 60, 100):
        space = {"name": "sRGB1+CVD", "cvd_type": name, "severity": severity}
        for hex_ in colors:
            out = colorspacious.cspace_convert(rgb(hex_), space, "sRGB1")
            if np.all(out >= -1e-9) and np.all(out <= 1 + 1e-9):
                anomaly.append({"deficiency": name, "severity": severity / 100, "color": hex_,
                                "simulated": [round(float(v), 9) for v in np.clip(out, 0, 1)]})

document = {
    "provenance": {
        "generated": datetime.date.today().isoformat(),
        "script": "scripts/cvd_vectors.py",
        "dichromacy": f"daltonlens {version('daltonlens')}: Simulator_Vienot1999 (protan, deutan) and Simulator_Brettel1997 (tritan), default LMS model (Smith & Pokorny 1975, sRGB), white as neutral; _simulate_dichromacy_linear_rgb in float64, clipped, sRGB-encoded",
        "anomaly": f"colorspacious {version('colorspacious')}: cspace_convert(sRGB1 color, {{name: sRGB1+CVD, cvd_type, severity 0-100}}, sRGB1) (Machado, Oliveira & Fernandes 2009); kept only inside sRGB",
    },
    "dichromacy": dichromacy,
    "anomaly": anomaly,
}
path = pathlib.Path(__file__).resolve().parent.parent / "Tests/ColorScienceTests/Vectors/cvd_vectors.json"
path.write_text(json.dumps(document, indent=1) + "\n")
print(f"{len(dichromacy)} dichromacy and {len(anomaly)} anomaly vectors → {path}")
