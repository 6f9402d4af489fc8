"""Runs the composite action in action.yml as the GitHub Actions runner does, offline.

Each step's `env:` expressions are evaluated against the inputs (with their defaults), the
`github` context and earlier steps' outputs; its `run:` script is run with
`bash --noprofile --norc -eo pipefail FILE` (the runner's `shell: bash`) and a fresh
$GITHUB_OUTPUT file; a failing step stops the rest, as in a composite action. Only the
expression forms the action uses are understood (a context path, or a quoted string): anything
else fails loudly, so a new form in action.yml needs this file to learn it.
"""
import os
import re
import subprocess

import yaml

EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")
PATH = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_-]*)*$")


def load(path):
    with open(path) as f:
        return yaml.safe_load(f)


def _lookup(expression, contexts):
    if expression.startswith("'") and expression.endswith("'"):
        return expression[1:-1].replace("''", "'")
    if not PATH.match(expression):
        raise ValueError(f"actionrunner does not evaluate ${{{{ {expression} }}}}")
    value = contexts
    for part in expression.split("."):
        value = value.get(part) if isinstance(value, dict) else None
    if value is None:
        return ""
    if value is True or value is False:
        return "true" if value else "false"
    return str(value)


def evaluate(text, contexts):
    """A string with `${{ … }}` expressions replaced by their values (missing values are '')."""
    return EXPRESSION.sub(lambda m: _lookup(m.group(1), contexts), str(text))


def _read_outputs(path):
    """GITHUB_OUTPUT's `name=value` lines and `name<<DELIMITER` blocks."""
    outputs = {}
    lines = open(path).read().split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
            name, delimiter = line.split("<<", 1)
            block = []
            i += 1
            while lines[i] != delimiter:
                block.append(lines[i])
                i += 1
            outputs[name] = "\n".join(block)
        elif "=" in line:
            name, value = line.split("=", 1)
            outputs[name] = value
        i += 1
    return outputs


class Result:
    def __init__(self):
        self.steps = []          # (name, returncode, stdout, stderr)
        self.outputs = {}        # the action's outputs
        self.failed_step = None

    @property
    def stdout(self):
        return "".join(s[2] for s in self.steps)

    @property
    def stderr(self):
        return "".join(s[3] for s in self.steps)

    @property
    def returncode(self):
        return next((s[1] for s in self.steps if s[1] != 0), 0)


def run_action(action_path, workspace, temp, *, inputs, github, env, timeout=300):
    """Runs every step of the composite action at `action_path`/action.yml in `workspace`."""
    action = load(os.path.join(action_path, "action.yml"))
    assert action["runs"]["using"] == "composite"
    contexts = {"github": dict(github), "steps": {}, "inputs": {}}
    for name, spec in action.get("inputs", {}).items():
        if name in inputs:
            contexts["inputs"][name] = inputs[name]
        elif spec.get("required"):
            raise ValueError(f"input {name} is required")
        else:
            contexts["inputs"][name] = evaluate(spec.get("default", ""), contexts)
    unknown = set(inputs) - set(action.get("inputs", {}))
    assert not unknown, f"the action has no input {unknown}"

    result = Result()
    for index, step in enumerate(action["runs"]["steps"]):
        assert step.get("shell") == "bash", f"step {index} must say shell: bash"
        assert "if" not in step, "actionrunner does not evaluate if:"
        script = step["run"]
        assert "${{" not in script, f"step {step.get('name')}: pass expressions through env:, not into the script"
        output = os.path.join(temp, f"output-{index}")
        open(output, "w").close()
        environment = dict(env)
        environment.update({
            "GITHUB_OUTPUT": output,
            "GITHUB_ACTION_PATH": action_path,
            "GITHUB_WORKSPACE": workspace,
            "RUNNER_TEMP": temp,
        })
        for key, value in (step.get("env") or {}).items():
            environment[key] = evaluate(value, contexts)
        script_file = os.path.join(temp, f"step-{index}.sh")
        with open(script_file, "w") as f:
            f.write(script)
        r = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", script_file],
                           cwd=workspace, env=environment, capture_output=True, text=True, timeout=timeout)
        result.steps.append((step.get("name", str(index)), r.returncode, r.stdout, r.stderr))
        if "id" in step:
            contexts["steps"][step["id"]] = {"outputs": _read_outputs(output)}
        if r.returncode != 0:
            result.failed_step = step.get("name", str(index))
            break
    for name, spec in action.get("outputs", {}).items():
        result.outputs[name] = evaluate(spec["value"], contexts)
    return result
