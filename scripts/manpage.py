#!/usr/bin/env python3
"""Writes contrast(1) from what the binary says of itself: argument-parser's
`--experimental-dump-help` (the tool information its own generate-manual plugin reads), so the
page cannot drift from the options. Usage: scripts/manpage.py BINARY > contrast.1

The page is man(7) roff: NAME, SYNOPSIS, DESCRIPTION, then a section per subcommand with its
arguments and options, their defaults and allowed values."""
import json
import subprocess
import sys


def roff(text):
    """Text safe in a roff body: backslashes as `\\e`, minus signs as `\\-` (so options copy as
    typed, not as hyphens), and a line that would start with a
    control character (`.` or `'`) protected by a zero-width escape."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    # Non-ASCII as roff's Unicode escapes: the page reads the same under any locale.
    text = "".join(c if ord(c) < 128 else f"\\[u{ord(c):04X}]" for c in text)
    lines = []
    for line in text.split("\n"):
        if line.startswith((".", "'")):
            line = "\\&" + line
        lines.append(line)
    return "\n".join(lines)


def option_name(argument):
    names = []
    for n in argument.get("names", []):
        dashes = "\\-" if n["kind"] == "short" else "\\-\\-"
        names.append(f"\\fB{dashes}{roff(n['name'])}\\fR")
    label = ", ".join(names)
    if argument["kind"] == "option":
        label += f" \\fI{roff(argument.get('valueName', 'value'))}\\fR"
    return label


def synopsis(command, path):
    parts = [f"\\fB{roff(' '.join(path))}\\fR"]
    for a in command.get("arguments", []):
        if not a.get("shouldDisplay", True):
            continue
        if a["kind"] == "positional":
            word = f"\\fI{roff(a['valueName'])}\\fR" + ("..." if a.get("isRepeating") else "")
            parts.append(f"[{word}]" if a.get("isOptional") else word)
    if any(a["kind"] != "positional" for a in command.get("arguments", [])):
        parts.append("[\\fIoptions\\fR]")
    return " ".join(parts)


def arguments(command):
    out = []
    for a in command.get("arguments", []):
        if not a.get("shouldDisplay", True):
            continue
        label = f"\\fI{roff(a['valueName'])}\\fR" if a["kind"] == "positional" else option_name(a)
        out.append(".TP")
        out.append(label)
        text = a.get("abstract", "")
        if a.get("discussion"):
            discussion = a["discussion"]
            text += " " + (discussion if isinstance(discussion, str) else "")
        extras = []
        if a.get("allValues"):
            extras.append("one of " + ", ".join(a["allValues"]))
        if a.get("defaultValue") not in (None, ""):
            extras.append(f"default {a['defaultValue']}")
        if a.get("isRepeating") and a["kind"] != "positional":
            extras.append("repeatable")
        if extras:
            text += " (" + "; ".join(extras) + ")"
        out.append(roff(text.strip()))
    return out


def paragraphs(text):
    """A discussion's paragraphs: filled text, or as written where lines are indented (examples,
    tables of exit codes)."""
    out = []
    for paragraph in text.strip("\n").split("\n\n"):
        indented = any(line.startswith("  ") for line in paragraph.split("\n"))
        out += [".PP", ".nf" if indented else ".fi", roff(paragraph.strip("\n")), ".fi"]
    return out


def page(info):
    root = info["command"]
    name = root["commandName"]
    out = [f'.TH {name.upper()} 1 "" "{roff(name)}" "User Commands"',
           ".SH NAME", f"{roff(name)} \\- {roff(root.get('abstract', ''))}",
           ".SH SYNOPSIS"]
    subcommands = [c for c in root.get("subcommands", []) if c.get("shouldDisplay", True) and c["commandName"] != "help"]
    for c in subcommands:
        out += [".br", synopsis(c, [name, c["commandName"]])]
    if root.get("discussion"):
        out += [".SH DESCRIPTION", *paragraphs(root["discussion"])]
    out += arguments(root) and [".SH OPTIONS"] + arguments(root)
    out.append(".SH COMMANDS")
    for c in subcommands:
        out += [".SS " + roff(f"{name} {c['commandName']}"), roff(c.get("abstract", ""))]
        if c.get("discussion"):
            out += paragraphs(c["discussion"])
        out += arguments(c)
    out += [".SH SEE ALSO", "The README and docs/ of the contrast repository."]
    return "\n".join(out) + "\n"


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: scripts/manpage.py BINARY > contrast.1")
    dumped = subprocess.run([sys.argv[1], "--experimental-dump-help"], capture_output=True, text=True, check=True).stdout
    sys.stdout.write(page(json.loads(dumped)))


if __name__ == "__main__":
    main()
