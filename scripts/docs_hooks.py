"""MkDocs hooks: the reference pages made from plies itself at build time.

* ``<!-- plies:cli-help -->`` becomes ``plies --help`` and every command's ``--help``,
  from the argparse parsers the command line runs (nothing copied by hand);
* ``<!-- plies:web-api -->`` becomes the web API's endpoints and schemas, from the
  OpenAPI document ``plies serve`` publishes at ``/api/openapi.json``, and the build
  writes that document beside the page (``reference/openapi.json``);
* Sphinx roles left in docstrings (``:class:`X```) are shown as plain code.

mkdocs.yml names this file under ``hooks:``; it needs plies installed (the ``docs``
extra of a clone: ``.venv/bin/pip install -e '.[docs]'``).
"""

from __future__ import annotations

import argparse
import json
import os
import re
from typing import Any

CLI_MARKER = "<!-- plies:cli-help -->"
WEB_API_MARKER = "<!-- plies:web-api -->"
OPENAPI_FILE = "reference/openapi.json"

#: Help is wrapped at this width, whatever the terminal that builds the site.
HELP_COLUMNS = "88"

_ROLE = re.compile(r":(?:class|func|meth|mod|data|attr|exc|obj):(<code>)")


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    """Fill the markers of the reference pages."""
    if CLI_MARKER in markdown:
        markdown = markdown.replace(CLI_MARKER, cli_reference())
    if WEB_API_MARKER in markdown:
        markdown = markdown.replace(WEB_API_MARKER, web_api_reference())
    return markdown


def on_page_content(html: str, page: Any, config: Any, files: Any) -> str:
    """Drop Sphinx roles before code in docstrings: ``:class:`Tree``` reads ``Tree``."""
    return _ROLE.sub(r"\1", html)


def on_files(files: Any, config: Any) -> Any:
    """Add the OpenAPI document to the site, beside the web API page."""
    from mkdocs.structure.files import File

    from plies.web._openapi import openapi_document

    text = json.dumps(openapi_document(), indent=2) + "\n"
    files.append(File.generated(config, OPENAPI_FILE, content=text))
    return files


# The command line ------------------------------------------------------------------------


def cli_reference() -> str:
    """``plies --help`` and each command's ``--help``, as Markdown sections."""
    from plies.cli import COMMANDS, build_parser, command_parser

    old = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = HELP_COLUMNS
    try:
        sections = [_help_section("plies", build_parser())]
        sections += [_help_section(f"plies {name}", command_parser(name)) for name in COMMANDS]
    finally:
        if old is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = old
    return "\n".join(sections)


def _help_section(title: str, parser: argparse.ArgumentParser) -> str:
    return f"## `{title}`\n\n```text\n{parser.format_help().rstrip()}\n```\n"


# The web API ------------------------------------------------------------------------------


def web_api_reference() -> str:
    """Every endpoint (summary, request, query, replies), then every schema."""
    from plies.web._openapi import openapi_document

    doc = openapi_document()
    parts = []
    for path, operations in doc["paths"].items():
        for method, operation in operations.items():
            parts.append(_endpoint(method, path, operation))
    parts.append("## Schemas\n")
    for name, schema in doc["components"]["schemas"].items():
        parts.append(f"### {name}\n\n{_plain(schema.get('description', ''))}\n\n{_fields(schema)}")
    return "\n".join(parts)


def _endpoint(method: str, path: str, operation: dict[str, Any]) -> str:
    lines = [f"## `{method.upper()} {path}`\n", _plain(operation["summary"]) + "\n"]
    body = operation.get("requestBody")
    if body:
        ref = body["content"]["application/json"]["schema"]["$ref"]
        name = ref.rsplit("/", 1)[-1]
        lines.append(f"Request body: [{name}](#{name.lower()}) (JSON).\n")
    params = operation.get("parameters")
    if params:
        fields = {p["name"]: {**p["schema"], "description": p["description"]} for p in params}
        lines.append("Query:\n\n" + _fields({"properties": fields}))
    lines.append("Replies:\n")
    for status, reply in operation["responses"].items():
        schema = reply.get("content", {}).get("application/json", {}).get("schema", {})
        name = schema.get("$ref", "").rsplit("/", 1)[-1]
        link = f" ([{name}](#{name.lower()}))" if name else ""
        lines.append(f"- **{status}**: {_plain(reply['description'])}{link}")
    return "\n".join(lines) + "\n"


def _fields(schema: dict[str, Any]) -> str:
    properties = schema.get("properties", {})
    if not properties:
        return f"Type: {_cell(_type_text(schema))}.\n"
    required = set(schema.get("required", ()))
    rows = ["| field | type | meaning |", "|---|---|---|"]
    for name, field in properties.items():
        mark = " (required)" if name in required else ""
        rows.append(
            f"| `{name}`{mark} | {_cell(_type_text(field))} | "
            f"{_cell(_plain(field.get('description', '')))} |"
        )
    return "\n".join(rows) + "\n"


def _type_text(schema: dict[str, Any]) -> str:
    if "$ref" in schema:
        return str(schema["$ref"]).rsplit("/", 1)[-1]
    if "enum" in schema:
        return " | ".join(f"`{v}`" for v in schema["enum"])
    if "oneOf" in schema:
        return " or ".join(_type_text(s) for s in schema["oneOf"])
    kind = schema.get("type", "any")
    if kind == "array":
        return f"list of {_type_text(schema.get('items', {}))}"
    if kind == "object" and "additionalProperties" in schema:
        values = schema["additionalProperties"]
        if isinstance(values, dict):
            return f"object of {_type_text(values)}"
    return kind if isinstance(kind, str) else " or ".join(kind)


def _plain(text: str) -> str:
    """Text shown as written in Markdown: no links, emphasis or HTML made of it."""
    text = text.replace("\\", "\\\\").replace("<", "&lt;")
    for mark in "[]*`":
        text = text.replace(mark, "\\" + mark)
    return text


def _cell(text: str) -> str:
    """Text fit for one cell of a Markdown table."""
    return text.replace("\n", " ").replace("|", "\\|")
