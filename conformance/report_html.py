"""``report.html``: one self-contained page a person can read (inline CSS, SVG and script, no external asset).

Built from the results.json document alone, in the order a reader acts on it: the comparison with a
baseline run (when there is one), the per-area and per-capability verdicts, the charts, every scenario
under filters (``report_scenarios``), every failure and error with its Gherkin steps (the failing one
marked) and its masked HTTP transcript, then clause coverage, operations without a scenario,
expectations (fixed entries first: they ask for an edit), leaks and the disabled scenarios by reason.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from .report_assets import CSS, SCRIPT
from .report_assets import badge as _badge
from .report_assets import esc as _e
from .report_scenarios import charts_section, comparison_section, scenario_attributes, scenarios_section

__all__ = ["render_report"]


def _counts_table(title: str, groups: dict[str, dict[str, Any]]) -> str:
    columns = ("passed", "failed", "error", "unsupported", "expected_failure", "disabled", "total")
    head = "".join(f"<th>{_e(name.replace('_', ' '))}</th>" for name in columns)
    rows = [
        f"<tr><td>{_e(name)}</td>"
        + "".join(f'<td class="n">{counts[column]}</td>' for column in columns)
        + f"<td>{_badge(counts['verdict'])}</td></tr>"
        for name, counts in groups.items()
    ]
    return f"<table><tr><th>{_e(title)}</th>{head}<th>verdict</th></tr>{''.join(rows)}</table>"


def _header(results: dict[str, Any]) -> str:
    target, profile, totals = results["target"], results["profile"], results["totals"]
    kind = "embedded reference server" if target["embedded"] else "live target"
    rows = [
        ("target", f"{target['url']} ({kind})"),
        ("target version", target["version"]),
        ("profile", f"{profile['name']} — {profile['chosen_by']}"),
        ("kit version", results["kit_version"]),
        ("started", results["started"]),
        ("seed", f"{results['seed']} (conformance --seed {results['seed']} replays the scenarios' data)"),
        ("duration", f"{results['duration']} s"),
        ("exit status", f"{results['exit_status']}{' (the run was stopped early)' if results['interrupted'] else ''}"),
        ("expectations file", results["expectations"]["file"] or "none"),
        *_shard_rows(results),
    ]
    table = "".join(f"<tr><td>{_e(key)}</td><td>{_e(value)}</td></tr>" for key, value in rows)
    summary = ", ".join(
        f"{totals[name]} {name.replace('_', ' ')}"
        for name in ("passed", "failed", "error", "unsupported", "expected_failure", "disabled")
    )
    fixed = len(results["expectations"]["fixed"])
    notice = (
        f'<p class="fixed"><b>fixed: remove this entry</b> — {fixed} scenario(s) listed in the expectations file '
        "passed; see Expectations below.</p>"
        if fixed
        else ""
    )
    return (
        f"<h1>Conformance report {_badge(totals['verdict'])}</h1>"
        f"<p>{_e(summary)}.</p>{notice}<table class='meta'>{table}</table>"
    )


def _shard_rows(results: dict[str, Any]) -> list[tuple[str, str]]:
    """A shard's place in its run, or the shards a merge joined (with their run prefixes, for the janitor)."""
    shard = results.get("shard")
    if shard:
        return [("shard", f"{shard['index']}/{shard['count']} ({shard['scenarios']} of {shard['selected']} scenarios)")]
    return [
        (f"shard {entry['shard']}", f"run prefix {entry['run_prefix']}, exit status {entry['exit_status']}")
        for entry in results.get("merged_from") or []
    ]


def _areas(results: dict[str, Any]) -> str:
    areas = results["areas"]
    ran = {name: counts for name, counts in areas.items() if counts["verdict"] != "disabled"}
    idle = sorted(name for name in areas if name not in ran)
    parts = ["<h2>Areas</h2>", _counts_table("area", ran)]
    if idle:
        parts.append(f"<p><small>Not run in this run (disabled): {_e(', '.join(idle))}.</small></p>")
    probed = {name: counts for name, counts in results["capabilities"].items() if counts["verdict"] != "disabled"}
    if probed:
        parts += ["<h2>Capabilities</h2>", _counts_table("capability", probed)]
    idle = sorted(name for name in results["capabilities"] if name not in probed)
    if idle:
        parts.append(f"<p><small>Capabilities no scenario of this run needed: {_e(', '.join(idle))}.</small></p>")
    return "".join(parts)


def _exchange(exchange: dict[str, Any]) -> str:
    lines = [f"> {exchange['method']} {exchange['url']}"]
    lines += [f"> {name}: {value}" for name, value in exchange["request_headers"].items()]
    if exchange["request_body"]:
        lines += [">", exchange["request_body"]]
    if exchange["error"]:
        lines.append(f"< (no response: {exchange['error']})")
    else:
        lines.append(f"< {exchange['status']}  ({exchange['elapsed_ms']} ms)")
        lines += [f"< {name}: {value}" for name, value in exchange["response_headers"].items()]
        if exchange["response_body"]:
            lines += ["<", exchange["response_body"]]
    return f"<pre>{_e(chr(10).join(lines))}</pre>"


def _failure(scenario: dict[str, Any]) -> str:
    steps = "".join(
        f'<li class="{_e(step["status"].replace(" ", "-"))}">{_e(step["keyword"])} {_e(step["text"])}'
        f" <small>({_e(step['status'])})</small></li>"
        for step in scenario["steps"]
    )
    transcript = "".join(_exchange(exchange) for exchange in scenario["transcript"])
    exchanges = len(scenario["transcript"])
    return (
        f'<div class="failure {_e(scenario["outcome"])}"{scenario_attributes(scenario)}>'
        f"<h3>{_badge(scenario['outcome'])} {_e(scenario['id'])}</h3>"
        f"<p><small>{_e(scenario['feature'])} · tags {_e(' '.join('@' + tag for tag in scenario['tags']))}</small></p>"
        f"<pre>{_e(scenario['message'])}</pre>"
        + (f'<p>Steps:</p><ol class="steps">{steps}</ol>' if steps else "")
        + (
            f"<details open><summary>HTTP transcript ({exchanges} exchange(s), credentials masked)</summary>"
            f"{transcript}</details>"
            if transcript
            else "<p><small>No HTTP exchange was recorded.</small></p>"
        )
        + "</div>"
    )


def _failures(results: dict[str, Any]) -> str:
    broken = [scenario for scenario in results["scenarios"] if scenario["outcome"] in ("failed", "error")]
    parts = [f"<h2>Failures and errors ({len(broken)})</h2>"]
    parts += [_failure(scenario) for scenario in broken] or ["<p>None.</p>"]
    unsupported = [scenario for scenario in results["scenarios"] if scenario["outcome"] == "unsupported"]
    if unsupported:
        items = "".join(f"<li>{_e(s['id'])} — {_e(s['message'])}</li>" for s in unsupported)
        parts.append(f"<h3>Unsupported ({len(unsupported)})</h3><ul>{items}</ul>")
    return "".join(parts)


def _clauses(results: dict[str, Any]) -> str:
    rows = []
    for clause in results["clause_coverage"]:
        ran = [s for s in clause["scenarios"] if s["outcome"] != "disabled"]
        scenarios = "<br>".join(f"{_badge(s['outcome'])} {_e(s['id'])}" for s in ran)
        left_out = len(clause["scenarios"]) - len(ran)
        if left_out:
            scenarios += f"{'<br>' if ran else ''}<small>{left_out} disabled scenario(s)</small>"
        rows.append(
            f"<tr><td>{_e(clause['id'])}</td><td>{_e(clause['section'])}</td><td>{_e(clause['text'])}</td>"
            f"<td>{_badge(clause['verdict'])}</td><td>{scenarios or '<small>none</small>'}</td></tr>"
        )
    verdicts = Counter(clause["verdict"] for clause in results["clause_coverage"])
    summary = ", ".join(f"{count} {verdict}" for verdict, count in sorted(verdicts.items()))
    return (
        f"<h2>Clause coverage</h2><p>{len(results['clause_coverage'])} clauses of the specification: {_e(summary)}.</p>"
        "<table><tr><th>clause</th><th>section</th><th>what it says</th><th>verdict</th><th>scenarios</th></tr>"
        + "".join(rows)
        + "</table>"
    )


def _by_tag(coverage: dict[str, Any]) -> str:
    rows = "".join(
        f"<tr><td>{_e(tag)}</td><td>{counts['covered']}</td><td>{counts['total']}</td></tr>"
        for tag, counts in coverage["by_tag"].items()
    )
    return f"<table><tr><th>tag</th><th>reached</th><th>operations</th></tr>{rows}</table>"


def _uncovered_rows(coverage: dict[str, Any]) -> str:
    return "".join(
        f"<tr><td>{_e(op['tag'])}</td><td>{_e(op['method'])}</td><td>{_e(op['path'])}</td>"
        f"<td>{_e(op['operation_id'])}</td></tr>"
        for op in coverage["uncovered"]
    )


def _gitea_operations(results: dict[str, Any]) -> str:
    coverage = results["gitea_operation_coverage"]
    rows = _uncovered_rows(coverage)
    table = "<table><tr><th>tag</th><th>method</th><th>path</th><th>operation</th></tr>" + rows + "</table>"
    return (
        f"<h2>{_e(coverage['source'])}: operations reached</h2>"
        f"<p>{coverage['covered']} of {coverage['total']} operations of {_e(coverage['source'])}'s REST API were "
        "reached by this run's scenarios.</p>"
        + _by_tag(coverage)
        + (f"<details><summary>The {len(coverage['uncovered'])} no scenario reached</summary>{table}</details>")
    )


def _operations(results: dict[str, Any]) -> str:
    coverage = results["operation_coverage"]
    rows = _uncovered_rows(coverage)
    parts = [
        "<h2>Operations without a scenario</h2>",
        f"<p>{coverage['covered']} of {coverage['total']} operations were exercised by this run's scenarios "
        f"<small>(description: {_e(coverage['source'])})</small>.</p>",
        f"<table><tr><th>tag</th><th>method</th><th>path</th><th>operation</th></tr>{rows}</table>"
        if rows
        else "<p>None.</p>",
    ]
    if coverage["unmatched_requests"]:
        items = "".join(f"<li><code>{_e(request)}</code></li>" for request in coverage["unmatched_requests"])
        parts.append(f"<details><summary>Requests that match no operation</summary><ul>{items}</ul></details>")
    contract = results.get("contract")
    if contract:
        parts.append(
            f"<p>API contract: {contract['validated']} JSON answers were validated against their operation's "
            f"schema, {contract['violations']} broke it (each fails its step; see the failures above).</p>"
        )
    return "".join(parts)


def _entry(entry: dict[str, Any]) -> str:
    link = f' — <a href="{_e(entry["link"])}">{_e(entry["link"])}</a>' if entry.get("link") else ""
    expires = f" <small>(expires {_e(entry['expires'])})</small>" if entry.get("expires") else ""
    return f"<li><code>{_e(entry.get('scenario', entry['id']))}</code>: {_e(entry['reason'])}{link}{expires}</li>"


def _expectations(results: dict[str, Any]) -> str:
    summary = results["expectations"]
    parts = ["<h2>Expectations</h2>"]
    if summary["file"] is None:
        return parts[0] + "<p>No expectations file was used.</p>"
    parts.append(f"<p>File: <code>{_e(summary['file'])}</code></p>")
    if summary["fixed"]:
        items = "".join(_entry(entry) for entry in summary["fixed"])
        parts.append(
            f'<div class="fixed"><h3>fixed: remove this entry ({len(summary["fixed"])})</h3><ul>{items}</ul></div>'
        )
    for key, title in (
        ("expired", "Expired entries (their scenarios count as failed)"),
        ("expected_failures", "Expected failures"),
        ("not_run", "Entries whose scenario did not run or did not fail or pass"),
    ):
        if summary[key]:
            items = "".join(_entry(entry) for entry in summary[key])
            parts.append(f"<h3>{_e(title)} ({len(summary[key])})</h3><ul>{items}</ul>")
    return "".join(parts)


def _tail(results: dict[str, Any]) -> str:
    parts = []
    if results["leaks"]:
        items = "".join(
            f"<li>{_e(leak['kind'])} {_e(leak['name'])}: {_e(leak['reason'])}</li>" for leak in results["leaks"]
        )
        parts.append(f"<h2>Left behind by the cleanup ({len(results['leaks'])})</h2><ul>{items}</ul>")
    reasons = Counter(s["message"] for s in results["scenarios"] if s["outcome"] == "disabled")
    if reasons:
        items = "".join(f"<li>{count}: {_e(reason)}</li>" for reason, count in reasons.most_common())
        parts.append(f"<h2>Disabled scenarios ({sum(reasons.values())})</h2><ul>{items}</ul>")
    return "".join(parts)


def render_report(results: dict[str, Any]) -> str:
    """The whole page for a results.json document."""
    body = "".join(
        (
            _header(results),
            comparison_section(results),
            _areas(results),
            charts_section(results),
            scenarios_section(results),
            _failures(results),
            _clauses(results),
            _operations(results),
            _gitea_operations(results),
            _expectations(results),
            _tail(results),
        )
    )
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>Conformance report: {_e(results['target']['url'])}</title><style>{CSS}</style></head>"
        f"<body>{body}<script>{SCRIPT}</script></body></html>\n"
    )
