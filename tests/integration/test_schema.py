"""openapi.yaml is a valid OpenAPI 3.1 document, and what the tool emits matches its schemas."""
import json
import subprocess

import yaml
from jsonschema import Draft202012Validator
from openapi_spec_validator import validate

from conftest import ROOT


def spec():
    return yaml.safe_load((ROOT / "openapi.yaml").read_text())


def validator(name):
    document = spec()
    return Draft202012Validator({"$ref": f"#/components/schemas/{name}", "components": document["components"]})


def test_openapi_is_valid():
    validate(spec())


def test_palettes_match_the_palette_schema():
    for path in sorted((ROOT / "palettes").glob("*.json")):
        validator("Palette").validate(json.loads(path.read_text()))


def test_audit_output_matches_the_audit_schema(binary):
    out = subprocess.run([binary, "audit", str(ROOT / "palettes"), "--format", "json",
                          "--baseline", str(ROOT / "contrast-baseline.json")], capture_output=True, text=True).stdout
    validator("AuditReport").validate(json.loads(out))
