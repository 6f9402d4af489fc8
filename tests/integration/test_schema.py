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


def test_dockerfile_passes_hadolint():
    import shutil
    import subprocess
    hadolint = shutil.which("hadolint")
    assert hadolint, "hadolint is not installed: run scripts/ensure-deps.sh test (make test does)"
    result = subprocess.run([hadolint, "--no-color", "Dockerfile"], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_dockerfile_shape():
    text = (ROOT / "Dockerfile").read_text()
    assert "AS build" in text and "--static-swift-stdlib" in text
    assert "libmicrohttpd12" in text and "USER 10001" in text
    assert "EXPOSE 8080" in text and "HEALTHCHECK" in text and "/healthz" in text
