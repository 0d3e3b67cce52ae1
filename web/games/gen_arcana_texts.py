#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes arcana_texts.js, the Res Arcana card names and texts the browser
board shows, from the game's card data, in English and in Simplified
Chinese. The words for the card vocabulary (res-arcana.md section 12) are
the terminal client's (client-cli/render/gen_arcana_texts.py), in both
languages, imported from there so that both clients say the same thing
about every card; this script only arranges them into one JavaScript
object per card. The Chinese texts name no card themselves: "@{id}"
stands for another card's name, which the board fills in from the game's
catalogue (lang/arcana.json), as the names of the cards themselves.
Usage: gen_arcana_texts.py arcana-cards.json > arcana_texts.js"""
import json
import sys

sys.dont_write_bytecode = True  # no cache of cli_words.py in the source tree
from cli_words import load  # noqa: E402

W = load("gen_arcana_texts.py")
ESSENCES = ["elan", "life", "calm", "death", "gold"]
ARROW = " \u2192 "


def cost_map(cost):
    """The printed cost in a fixed key order (elan ... gold, any), or None."""
    if cost is None:
        return None
    return {k: cost[k] for k in ESSENCES + ["any"] if cost.get(k)}


def power_head(p):
    head = "Power %d" % p["index"]
    if p["kind"] == "react":
        head += " (%s" % W.TRIGGER[p["trigger"]]
        head += ", also while turned)" if p.get("usable_when") == "either" else ")"
    elif p.get("usable_when") == "turned":
        head += " (only while this is turned)"
    return head


def power_body(p, kind):
    cost = ", ".join(W.cost_part(c, False, kind) for c in p["cost"]) or "no cost"
    return "%s%s%s." % (cost, ARROW, "; ".join(W.effect(e) for e in p["effect"]))


def ignore_cost(c):
    """The cost parts a rival pays to ignore this card's attack, or []."""
    for p in c.get("powers", []):
        for e in p["effect"]:
            if e["op"] == "rivals_lose_life" and e.get("ignore_cost"):
                return e["ignore_cost"]
    return []


def ignore_words(parts):
    """The ignore cost in the rival's own words ("pay 1 Death")."""
    return " and ".join(W.cost_part(x, True) for x in parts).replace("their", "your")


def ignore_pay(parts):
    """The essences the ignore cost takes from the rival's pool, or None."""
    pay = {}
    for x in parts:
        if x["op"] == "pay":
            for k, n in x["essences"].items():
                pay[k] = pay.get(k, 0) + n
    return cost_map(pay) if pay else None


def power_head_zh(p):
    head = "力量 %d" % p["index"]
    if p["kind"] == "react":
        head += "（%s%s）" % (W.TRIGGER_ZH[p["trigger"]],
                            "，横置时也可使用" if p.get("usable_when") == "either" else "")
    elif p.get("usable_when") == "turned":
        head += "（仅在此牌横置时）"
    return head


def power_body_zh(p, kind):
    cost = "，".join(W.cost_part_zh(c, False, kind) for c in p["cost"]) or "无花费"
    return "%s%s%s。" % (cost, ARROW, "；".join(W.effect_zh(e) for e in p["effect"]))


def card_zh(c, ids):
    """The card's words in Chinese, in the shape of the English ones."""
    kind_line = [W.KIND_ZH[c["kind"]]] + [W.TAG_ZH[t] for t in c.get("tags", [])]
    vp = ["%d 胜利点数" % c["vp"]] if c.get("vp") else []
    vp += [W.vp_per_zh(v) for v in c.get("vp_per", [])]
    lines = []
    for x in c.get("collect", []):
        lines.append("收集：%s。" % W.collect_zh(x))
    for x in c.get("passives", []):
        lines.append("持续：%s。" % W.passive_zh(x))
    for x in c.get("on_claim", []):
        lines.append("拿取时：%s。" % W.effect_zh(x))
    powers = {}
    for p in c.get("powers", []):
        body = power_body_zh(p, c["kind"])
        powers[str(p["index"])] = body
        lines.append("%s：%s" % (power_head_zh(p), body))
    out = {
        "type": " \u00b7 ".join(kind_line),
        "vp": "，".join(vp),
        "lines": lines,
        "powers": powers,
        "notes": [W.note_zh(n, ids) for n in c.get("notes", []) if not n.startswith("Checked against")],
    }
    pop = c.get("place_of_power")
    if pop:
        out["side"] = "第 %d 张板，%s 面（另一面：@{%s}）" % (pop["card"], pop["side"],
                                                       pop["other_side_id"])
    parts = ignore_cost(c)
    if parts:
        out["ignore"] = "并".join(W.cost_part_zh(x, False) for x in parts)
    return out


def card(c, names):
    """The object the board reads for one card."""
    kind_line = [W.KIND[c["kind"]]] + [W.tag_word(t) for t in c.get("tags", [])]
    vp = ["%d VP" % c["vp"]] if c.get("vp") else []
    vp += [W.vp_per(v) for v in c.get("vp_per", [])]
    lines = []
    pop = c.get("place_of_power")
    for x in c.get("collect", []):
        lines.append("Collect: %s." % W.collect(x))
    for x in c.get("passives", []):
        lines.append("Always: %s." % W.passive(x))
    for x in c.get("on_claim", []):
        lines.append("When claimed: %s." % W.effect(x))
    powers = {}
    for p in c.get("powers", []):
        body = power_body(p, c["kind"])
        powers[str(p["index"])] = W.sentence(body)
        lines.append("%s: %s" % (power_head(p), body))
    out = {
        "name": c["name"],
        "kind": c["kind"],
        "type": W.sentence(" \u00b7 ".join(kind_line)),
        "cost": cost_map(c.get("cost")),
        "vp": W.sentence(", ".join(vp)) if vp else "",
        "lines": [W.sentence(x) for x in lines],
        "powers": powers,
        "reacts": [p["index"] for p in c.get("powers", []) if p["kind"] == "react"],
        "notes": [n for n in c.get("notes", []) if not n.startswith("Checked against")],
    }
    if pop:
        out["side"] = "Board %d, side %s (other side: %s)" % (
            pop["card"], pop["side"], names[pop["other_side_id"]])
    if c.get("first_game_preset"):
        out["preset"] = c["first_game_preset"]
    parts = ignore_cost(c)
    if parts:
        out["ignore"] = ignore_words(parts)
        if ignore_pay(parts):
            out["ignore_pay"] = ignore_pay(parts)
    out["zh"] = card_zh(c, names)
    return out


def main():
    if len(sys.argv) != 2:
        raise SystemExit("usage: gen_arcana_texts.py arcana-cards.json")
    with open(sys.argv[1], encoding="utf-8") as f:
        data = json.load(f)
    names = {c["id"]: c["name"] for c in data}
    out = [
        "// SPDX-License-Identifier: MIT",
        "// Generated by web/games/gen_arcana_texts.py from",
        "// server/games/arcana/data/arcana-cards.json: do not edit.",
        "// One entry per card id: name, kind, type line, printed cost (essence",
        "// counts, `any`), VP words, text lines, action powers by index, React",
        "// power indexes, notes; Places of Power their board side, attackers",
        "// what ignoring them costs (and the essences it takes); `zh` the same",
        "// words in Simplified Chinese, where \"@{id}\" stands for a card's name.",
        "export const CARDS = {",
    ]
    for c in data:
        body = json.dumps(card(c, names), ensure_ascii=False, separators=(", ", ": "))
        out.append("  %s: %s," % (json.dumps(c["id"]), body))
    out += ["};", ""]
    sys.stdout.write("\n".join(out))


if __name__ == "__main__":
    main()
