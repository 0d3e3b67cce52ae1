#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes arcana_texts.c, the Res Arcana card texts the terminal client shows
for `card NAME` (and the names and power indexes its renderer uses), from
the game's card data: the vocabulary of res-arcana.md section 12 turned into
words, in English and in Simplified Chinese. The Chinese words for the
game's terms (essences, components, turn and straighten, Collect, React)
follow the Chinese rulebook; the rest, the notes included, is our
translation (NOTES_ZH: a note without one stops the generator). A Chinese
text names no card itself: it starts after the card's name, and "@{id}"
stands for another card's name, both filled in by the client in the
reader's language (lang/arcana.json's names when it has them).
Usage: gen_arcana_texts.py arcana-cards.json"""
import json
import re
import sys
import textwrap

ORDER = ["elan", "life", "calm", "death", "gold"]
WORD = {"elan": "Elan", "life": "Life", "calm": "Calm", "death": "Death", "gold": "Gold"}
TAG = {"dragon": ("Dragon", "Dragons"), "creature": ("Creature", "Creatures")}
KIND = {"mage": "mage", "artifact": "artifact", "magic_item": "magic item",
        "monument": "monument", "place_of_power": "Place of Power"}
TRIGGER = {"life_loss": "react when a rival's effect would make you lose Life",
           "dragon_power": "react when a Dragon's power would make you lose Life",
           "victory_check": "react at a victory check"}


def c_string(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def essences(m):
    """{"elan": 2, "any": 1} -> "2 Elan + any 1"."""
    parts = ["%d %s" % (m[k], WORD[k]) for k in ORDER if m.get(k)]
    if m.get("any"):
        parts.append("any %d" % m["any"])
    return " + ".join(parts) if parts else "nothing"


def types(opts, joiner="or"):
    words = [WORD[o] for o in opts]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " %s " % joiner + words[-1]


def excluding(exclude):
    return " (no %s)" % types(exclude, "and no").replace(", ", ", no ") if exclude else ""


def any_n(count, exclude):
    return "any %d%s" % (count, excluding(exclude))


def tag_word(tag, plural=False):
    return TAG[tag][1 if plural else 0]


def cost_part(p, rival=False, kind="artifact"):
    op = p["op"]
    you, your = ("they", "their") if rival else ("you", "your")
    if op == "turn_self":
        return "turn this"
    if op == "pay":
        return "pay " + essences(p["essences"])
    if op == "pay_any":
        return "pay " + any_n(p["count"], p.get("exclude", []))
    if op == "pay_choice":
        return "pay %d %s" % (p.get("count", 1), types(p["options"]))
    if op == "pay_same_type":
        ex = p.get("exclude", [])
        return ("pay X essences all of one type (%sX may be %d)"
                % ("no " + types(ex, "and no") + "; " if ex else "", p.get("min", 0)))
    if op == "remove_from_self":
        return "remove %s from this" % essences(p["essences"])
    if op == "turn_own":
        return "turn another of your straight %s" % tag_word(p["filter"]["tag"], True)
    if op == "destroy_self":
        return "destroy this"
    if op == "destroy_own_artifact":
        f = p.get("filter", {})
        if f.get("tags_any"):
            what = " or ".join(tag_word(t, True) for t in f["tags_any"])
        else:
            what = "artifacts"
        if rival:
            return "destroy one of %s %s in play" % (your, what)
        if f.get("exclude_self"):
            return "destroy another of %s %s" % (your, what)
        return "destroy one of %s %s%s" % (your, what,
                                           " (this one too)" if kind == "artifact" else "")
    if op == "discard_from_hand":
        n = p.get("count", 1)
        return "discard %d card%s from %s hand" % (n, "" if n == 1 else "s", your)
    raise SystemExit("gen_arcana_texts: unknown cost op %s" % op)


def bound(name):
    return {"destroyed": "the destroyed artifact", "discarded": "the discarded card"}.get(
        name, "that card")


def effect(e):
    op = e["op"]
    if op == "gain":
        return "gain " + essences(e["essences"])
    if op == "gain_any":
        return "gain " + any_n(e["count"], e.get("exclude", []))
    if op == "gain_choice":
        return "gain %d %s" % (e.get("count", 1), types(e["options"]))
    if op == "place_on_self":
        return "put %s on this" % essences(e["essences"])
    if op == "place_any_on_self":
        return "put %s on this" % any_n(e["count"], e.get("exclude", []))
    if op == "place_spent_on_self":
        return "put what was paid on this"
    if op == "place_spent_on_own_component":
        return "put the paid essence on one of your components"
    if op == "rivals_gain":
        return "each rival gains " + essences(e["essences"])
    if op == "rivals_lose_life":
        s = "each rival loses %d Life" % e["amount"]
        if e.get("ignore_cost"):
            s += " unless they " + " and ".join(cost_part(p, True) for p in e["ignore_cost"])
        return s
    if op == "gain_equal_to_rival_pool":
        return ("choose a rival: gain as many %s as they have %s in their pool"
                % (WORD[e["gain"]], WORD[e["count"]]))
    if op == "draw":
        n = e["count"]
        return "draw %d card%s" % (n, "" if n == 1 else "s")
    if op == "draw_then_discard":
        return ("draw %d cards, then discard as many cards as were drawn (up to %d)"
                % (e["draw"], e["discard"]))
    if op == "look_reorder":
        decks = {"own_artifact_deck": "your deck", "monument_deck": "the monument deck"}
        return ("look at the top %d cards of %s and put them back in any order"
                % (e["count"], " or of ".join(decks[d] for d in e["decks"])))
    if op == "straighten_own":
        what = tag_word(e["filter"]["tag"], True) if e.get("filter") else "components"
        return "%s one of your turned %s" % (
            "you may straighten" if e.get("optional", True) else "straighten", what)
    if op == "straighten_self":
        return "straighten this"
    if op == "gain_bound":
        if e["as"] == "gold":
            return "gain X Gold"
        return "gain X essences of one %stype%s" % (
            "other " if e.get("must_differ") else "", excluding(e.get("exclude", [])))
    if op == "gain_from_printed_cost":
        plus = " + %d" % e["plus"] if e.get("plus") else ""
        what = bound(e["from"])
        if e["as"] == "gold":
            return "gain Gold equal to the printed cost of %s%s" % (what, plus)
        return "gain as many essences as the printed cost of %s%s%s" % (
            what, plus, excluding(e.get("exclude", [])))
    if op == "place_artifact":
        tag = e.get("filter", {}).get("tag")
        what = "a " + tag_word(tag) if tag else "an artifact"
        where = {"hand": "your hand", "own_discard": "your discard pile",
                 "any_discard": "any player's discard pile"}[e["from"]]
        mod = e.get("cost_modifier")
        if not mod:
            how = "paying its cost"
        elif mod.get("set_to_zero"):
            how = "for free"
        else:
            how = "for %d less%s" % (mod["reduce"],
                                     " (not Gold)" if "gold" in mod.get("exclude", []) else "")
        return "%splace %s from %s, %s" % ("you may " if e.get("optional", True) else "",
                                          what, where, how)
    if op == "check_victory":
        return "check for victory now"
    if op == "ignore_life_loss":
        return "ignore that life loss"
    if op == "temp_vp":
        return "+%d VP for this victory check only" % e["amount"]
    raise SystemExit("gen_arcana_texts: unknown effect op %s" % op)


def collect(c):
    op = c["op"]
    if op in ("gain", "gain_any", "gain_choice"):
        return effect(c)
    if op == "if_left_on_self":
        held = "essences" if c["essence"] == "any" else WORD[c["essence"]]
        then = []
        for t in c["then"]:
            then.append("add 2 more of each type on it (on the card)"
                        if t["op"] == "add_two_per_type_on_self" else effect(t))
        return "if it holds %s and you leave its essences on it, %s" % (held, "; ".join(then))
    if op == "upkeep_or_turn":
        return "pay %s or turn this" % essences(c["pay"])
    raise SystemExit("gen_arcana_texts: unknown collect op %s" % op)


def passive(p):
    if p["op"] == "placement_discount":
        what = "artifacts" if p["applies_to"] == "artifact" else tag_word(p["applies_to"], True)
        return "your %s cost %d less to place%s" % (
            what, p["amount"], " (not Gold)" if "gold" in p.get("exclude", []) else "")
    raise SystemExit("gen_arcana_texts: unknown passive op %s" % p["op"])


def vp_per(v):
    if v["per"] == "essence_on_self":
        return "+%d VP per %s on it" % (v["vp"], WORD[v["essence"]])
    if v["per"] == "own_artifact_in_play_with_tag":
        return "+%d VP per %s you have in play" % (v["vp"], tag_word(v["tag"]))
    raise SystemExit("gen_arcana_texts: unknown VP formula %s" % v["per"])


def power(p, kind):
    head = "Power %d" % p["index"]
    if p["kind"] == "react":
        head += " (%s" % TRIGGER[p["trigger"]]
        head += ", also while turned)" if p.get("usable_when") == "either" else ")"
    elif p.get("usable_when") == "turned":
        head += " (only while this is turned)"
    cost = ", ".join(cost_part(c, False, kind) for c in p["cost"]) or "no cost"
    return "%s: %s -> %s." % (head, cost, "; ".join(effect(e) for e in p["effect"]))


def sentence(s):
    return s[0].upper() + s[1:]


def text(c):
    """The card's lines after its name, '\n' between them."""
    head = [KIND[c["kind"]]]
    head += [tag_word(t) for t in c.get("tags", [])]
    lines = [", ".join(head)]
    if c.get("cost") is not None:
        lines[0] += ". Cost: " + (essences(c["cost"]) if c["cost"] else "0 (nothing)")
    vp = ["%d VP" % c["vp"]] if c.get("vp") else []
    vp += [vp_per(v) for v in c.get("vp_per", [])]
    if vp:
        lines[0] += ". " + ", ".join(vp)
    lines[0] += "."
    pop = c.get("place_of_power")
    if pop:
        lines.append("Board %d, side %s (other side: %s)." % (pop["card"], pop["side"],
                                                            pop["other_side_id"]))
    for x in c.get("collect", []):
        lines.append("Collect: %s." % collect(x))
    for x in c.get("passives", []):
        lines.append("Always: %s." % passive(x))
    for x in c.get("on_claim", []):
        lines.append("When claimed: %s." % effect(x))
    for p in c.get("powers", []):
        lines.append(power(p, c["kind"]))
    if c.get("first_game_preset"):
        lines.append("First game: preset %d." % c["first_game_preset"])
    for n in c.get("notes", []):
        if not n.startswith("Checked against"):
            lines.append("Note: " + n)
    lines[0] = "%s (%s): %s" % (c["name"], c["id"], lines[0])
    return "\n".join(textwrap.fill(sentence(line), 78, subsequent_indent="    ")
                     for line in lines)


# ---- zh-CN ----

WORD_ZH = {"elan": "热情", "life": "生命", "calm": "冷静", "death": "死亡", "gold": "黄金"}
TAG_ZH = {"dragon": "巨龙", "creature": "生物"}
KIND_ZH = {"mage": "法师", "artifact": "神器", "magic_item": "魔法道具", "monument": "纪念碑",
           "place_of_power": "力量之地"}
TRIGGER_ZH = {"life_loss": "当对手的效果会使你失去生命时反应",
              "dragon_power": "当巨龙的力量会使你失去生命时反应",
              "victory_check": "在检查胜利时反应"}
# The card data's notes in Chinese, by their English.
NOTES_ZH = {
    "Elan built up on it may be taken off during Collect like any stored essence (which "
    "resets progress).":
    "它上面累积的热情可以像其他储存的精华一样在收集时拿走（进度随之归零）。",
    "Power 1 needs 6 Elan ON THE CARD (not from the pool), plus any number X (0 allowed) of "
    "pool essences that are all of one non-Gold type; gain X Gold.":
    "力量 1 需要此牌上（而非精华池中）的 6 个热情，外加精华池中任意数量 X（可为 0）的同一种"
    "非黄金精华；获得 X 黄金。",
    "Each non-passed rival loses 2 Life unless they pay 1 Death (or use a React).":
    "每个未跳过的对手失去 2 生命，除非他们支付 1 死亡（或使用反应）。",
    "Each non-passed rival loses 2 Life unless they pay 1 Gold (or use a React).":
    "每个未跳过的对手失去 2 生命，除非他们支付 1 黄金（或使用反应）。",
    "Each non-passed rival loses 2 Life unless they pay 1 Calm (or use a React).":
    "每个未跳过的对手失去 2 生命，除非他们支付 1 冷静（或使用反应）。",
    "Each non-passed rival loses 2 Life unless they pay 1 Elan (or use a React).":
    "每个未跳过的对手失去 2 生命，除非他们支付 1 热情（或使用反应）。",
    "Collect: any 2 essences, no Gold and no Death (mix allowed).":
    "收集：任意 2 个精华，黄金和死亡除外（可以混合）。",
    "Straightens one of its owner's turned components (any kind).":
    "转正其拥有者的一个被横置的元件（任意种类）。",
    "Power 0 has no turn cost: repeatable, one action per use, while the Chalice is straight.":
    "力量 0 没有横置花费：只要此牌是转正的，就可以重复使用，每次使用算一个行动。",
    "Power 1 may destroy the Altar itself (printed cost 5, so 7 essences); essences stored on a "
    "destroyed card return to the supply.":
    "力量 1 可以摧毁此牌本身（印刷花费 5，因此获得 7 个精华）；被摧毁的牌上储存的精华回到供应区。",
    "Gain counts the PRINTED placement cost (including 'any' icons), never a discounted cost.":
    "获得的数量按印刷的放置花费计算（包括“任意”图标），从不按折扣后的花费。",
    "Power 1 places an artifact from the owner's own discard pile; its cost is reduced by 2 "
    "non-Gold essences (Gold icons cannot be removed), stacking with Artificer/Dragon "
    "Bridle/Dragon's Lair.":
    "力量 1 从拥有者自己的弃牌堆放置一件神器；其花费减少 2 个非黄金精华（黄金图标不能被移除），"
    "可与@{artificer}、@{dragon_bridle}、@{dragons_lair}累积。",
    "Example from the rulebook: a card costing Gold + 1 other essence costs just the Gold.":
    "规则书中的例子：花费为黄金 + 1 个其他精华的牌，只需支付黄金。",
    "Puts 3 essences of the owner's choice, no Gold and no Life, on the Skull (collected next "
    "round).":
    "将拥有者选择的 3 个精华（黄金和生命除外）放在此牌上（下一轮收集）。",
    "React cost has no turn: usable even when the Sword is turned, once per life-loss event as "
    "long as Elan can be paid.":
    "反应花费中没有横置：即使此牌被横置也可使用，只要能支付热情，每次生命流失可使用一次。",
    "Nothing in the base game can turn the Dancing Sword (it has no turn cost and is neither a "
    "Creature nor a Dragon), so in practice it is always straight.":
    "基础游戏中没有任何东西能横置@{dancing_sword}（它没有横置花费，既不是生物也不是巨龙），"
    "所以实际上它总是转正的。",
    "Discount is an ability: applies even while the Bridle is turned.":
    "折扣是一种能力：即使此牌被横置也适用。",
    "React only against life loss caused by a Dragon's power (Sea Serpent included).":
    "只对巨龙的力量造成的生命流失反应（包括@{sea_serpent}）。",
    "Destroy the Egg (losing its 1 VP) to place a Dragon from hand at 4 less; stacks with other "
    "discounts.":
    "摧毁此牌（失去其 1 胜利点数），以从手牌放置一个巨龙，花费减少 4；可与其他折扣累积。",
    "Power 1 places a Dragon from hand for free (after paying the 3 Elan).":
    "力量 1 免费从手牌放置一个巨龙（在支付 3 热情之后）。",
    "Nothing in the base game can turn the Elemental Spring, so its React is in practice always "
    "used while straight.":
    "基础游戏中没有任何东西能横置@{elemental_spring}，所以实际上它的反应总是在转正时使用。",
    "No built-in ignore option; rivals may still use their own React powers.":
    "没有内置的忽略选项；对手仍可使用自己的反应力量。",
    "Power 1 must destroy ANOTHER of the owner's artifacts (not the Whip).":
    "力量 1 必须摧毁拥有者的另一件神器（不能是此牌本身）。",
    "Power 0 is the exception to the straight-only rule: it has no turn cost and can be used "
    "while the Dog is turned as well as while it is straight (it is still an action; used "
    "while straight it only costs the Elan).":
    "力量 0 是“只能在转正时使用”规则的例外：它没有横置花费，此牌被横置或转正时都可使用"
    "（这仍是一个行动；在转正时使用只需花费热情）。",
    "Power 0: look at the top 3 of own artifact deck OR the monument deck and put them back in "
    "any order.":
    "力量 0：查看自己神器牌库或纪念碑牌堆顶部的 3 张牌，并以任意顺序放回。",
    "Choose one rival (passed or not); gain Calm equal to the Elan in that rival's pool; the "
    "rival loses nothing.":
    "选择一名对手（无论是否已跳过）；获得与该对手精华池中热情数量相同的冷静；该对手不失去任何东西。",
    "Power 1 (destroy) needs the Statuette straight, like any non-React power; destroying it "
    "loses its 1 VP.":
    "力量 1（摧毁）与任何非反应力量一样，需要此牌是转正的；摧毁它会失去其 1 胜利点数。",
    "Cost 0: placing it is still an action.":
    "花费 0：放置它仍是一个行动。",
    "Moves 1 Calm, Life or Gold from the owner's pool onto one of the owner's components "
    "(usually a Place of Power that scores it).":
    "将拥有者精华池中的 1 个冷静、生命或黄金移到拥有者的一个元件上（通常是为其计分的力量之地）。",
    "No powers; worth 1 VP (and counts as a Creature).":
    "没有力量；价值 1 胜利点数（且算作生物）。",
    "Pay any 2 essences, plus X essences all of one non-Gold type (X may be 0); gain X Gold.":
    "支付任意 2 个精华，外加 X 个同一种非黄金精华（X 可为 0）；获得 X 黄金。",
    "Cost 0.":
    "花费 0。",
    "Power 1: pay X essences all of one type (X may be 0) and gain X essences all of one other, "
    "non-Gold type.":
    "力量 1：支付 X 个同一种类的精华（X 可为 0），并获得 X 个另一种非黄金的同种精华。",
    "Power 1 has no turn icon but, like every non-React power, needs the Dagger straight; it "
    "destroys the Dagger AND discards one card from hand; gain essences equal to that card's "
    "printed cost total, no Gold.":
    "力量 1 没有横置图标，但与每个非反应力量一样，需要此牌是转正的；它摧毁此牌并从手牌弃掉一张牌；"
    "获得与那张牌印刷花费总数相同的精华，黄金除外。",
    "Both a Dragon and a Creature (3 VP on Sorcerer's Bestiary).":
    "既是巨龙也是生物（在@{sorcerers_bestiary}上算 3 胜利点数）。",
    "Each non-passed rival loses 2 Life unless they destroy one of their own artifacts in play "
    "(or use a React).":
    "每个未跳过的对手失去 2 生命，除非他们摧毁自己在场上的一件神器（或使用反应）。",
    "In the ignore cost, 'own' means the rival who is ignoring: that rival destroys one of THEIR "
    "in-play artifacts (straight or turned); it goes to that rival's discard pile.":
    "在忽略花费中，“自己的”指的是要忽略的那名对手：该对手摧毁一件自己在场上的神器（转正或横置皆可）；"
    "它进入该对手的弃牌堆。",
    "Choose one rival (passed or not); gain Elan equal to the Death in that rival's pool.":
    "选择一名对手（无论是否已跳过）；获得与该对手精华池中死亡数量相同的热情。",
    "React has no turn cost: usable while turned.":
    "反应没有横置花费：横置时也可使用。",
    "Collect: if at least 1 Gold is on the Vault and its owner leaves it there this Collect "
    "step, gain any 2 non-Gold essences ('interest'). Taking the Gold forfeits the interest.":
    "收集：若此牌上至少有 1 黄金，且其拥有者在本次收集步骤中将其留在上面，获得任意 2 个非黄金精华"
    "（“利息”）。拿走黄金则失去利息。",
    "Each non-passed rival loses 2 Life unless they discard 1 card from hand (or use a React).":
    "每个未跳过的对手失去 2 生命，除非他们从手牌弃掉 1 张牌（或使用反应）。",
    "The card discarded to ignore goes face up to that rival's discard pile (it becomes "
    "public).":
    "为忽略而弃掉的牌面朝上进入该对手的弃牌堆（它因此公开）。",
    "Collect: if essences are on it and its owner leaves them, add 2 more of EACH essence type "
    "present on it (to the card, not the pool).":
    "收集：若其上有精华且其拥有者将它们留在上面，则为其上现有的每种精华各再加 2 个"
    "（加在牌上，而非精华池）。",
    "Both powers turn the mage: only one of them per round unless straightened.":
    "两种力量都会横置此法师：除非被转正，每轮只能使用其中一种。",
    "Artifacts only (not monuments or Places of Power); cannot remove a Gold icon.":
    "仅限神器（不包括纪念碑或力量之地）；不能移除黄金图标。",
    "Straightens one of the owner's turned Creatures only.":
    "只能转正其拥有者的一个被横置的生物。",
    "The 3 gained (non-Gold) may include the same types as those paid.":
    "获得的 3 个（非黄金）精华可以包含与支付的精华相同的种类。",
    "Straightens any one of the owner's turned components.":
    "转正其拥有者的任意一个被横置的元件。",
    "Draw 3 into hand, then discard 3 cards from the whole hand. If fewer than 3 could be drawn "
    "(after reshuffling), discard that many instead.":
    "抽 3 张牌到手牌，然后从全部手牌中弃掉 3 张。若（重洗后）抽不到 3 张，则改为弃掉相同数量的牌。",
    "Usable at any victory check (end of round or mid-round), even if its owner has passed; "
    "the +3 lasts only for that check.":
    "可在任何一次检查胜利时使用（轮末或轮中），即使其拥有者已跳过；+3 只在该次检查中有效。",
    "No turn cost: repeatable. The Death placed is collectable later; it is not worth points.":
    "没有横置花费：可以重复使用。放上的死亡可在之后收集；它不值分数。",
    "One-time gain when claimed (choose before the display is refilled).":
    "拿取时一次性获得（在补充展示区之前选择）。",
    "Power 1 turns both the Grove and one of the owner's straight Creatures.":
    "力量 1 同时横置此牌和拥有者的一个转正的生物。",
    "Collect: pay 1 Death or turn the Forge (then its power is unusable this round). May be "
    "resolved after taking other essences.":
    "收集：支付 1 死亡或横置此牌（此后本轮不能使用其力量）。可在拿取其他精华之后结算。",
    "Power 1: destroy one of the owner's Dragons or Creatures in play and gain Gold equal to "
    "its printed cost total.":
    "力量 1：摧毁拥有者在场上的一个巨龙或生物，并获得与其印刷花费总数相同的黄金。",
    "Power 1 turns both the Lair and one of the owner's straight Dragons.":
    "力量 1 同时横置此牌和拥有者的一个转正的巨龙。",
    "Power 1: turn the Bestiary and pay any 4 essences (Gold allowed), then you MAY place one "
    "Dragon from ANY player's discard pile (yours included) by paying that Dragon's own "
    "placement cost, reduced by every discount that applies (Artificer, Dragon Bridle, "
    "Dragon's Lair). The printed card reads 'place a Dragon from any player's discard pile, "
    "paying [its cost]'. The placed Dragon belongs to the user from then on.":
    "力量 1：横置此牌并支付任意 4 个精华（可含黄金），然后你可以从任意玩家的弃牌堆（包括你自己的）"
    "放置一个巨龙，支付该巨龙自己的放置花费，并减去所有适用的折扣（@{artificer}、@{dragon_bridle}、"
    "@{dragons_lair}）。印刷的卡牌文字为“从任意玩家的弃牌堆放置一个巨龙，支付［其花费］”。"
    "被放置的巨龙此后归使用者所有。",
    "Sea Serpent scores 3 (Dragon and Creature).":
    "@{sea_serpent}计 3 分（既是巨龙也是生物）。",
}


def essences_zh(m):
    """{"elan": 2, "any": 1} -> "2 热情 + 任意 1"."""
    parts = ["%d %s" % (m[k], WORD_ZH[k]) for k in ORDER if m.get(k)]
    if m.get("any"):
        parts.append("任意 %d" % m["any"])
    return " + ".join(parts) if parts else "无"


def types_zh(opts, joiner="或"):
    words = [WORD_ZH[o] for o in opts]
    return words[0] if len(words) == 1 else "、".join(words[:-1]) + joiner + words[-1]


def excluding_zh(exclude):
    return "（%s除外）" % types_zh(exclude, "和") if exclude else ""


def any_n_zh(count, exclude):
    return "任意 %d 个精华%s" % (count, excluding_zh(exclude))


def cost_part_zh(p, rival=False, kind="artifact"):
    op = p["op"]
    your = "他们的" if rival else "你的"
    if op == "turn_self":
        return "横置此牌"
    if op == "pay":
        return "支付 " + essences_zh(p["essences"])
    if op == "pay_any":
        return "支付" + any_n_zh(p["count"], p.get("exclude", []))
    if op == "pay_choice":
        return "支付 %d %s" % (p.get("count", 1), types_zh(p["options"]))
    if op == "pay_same_type":
        ex = p.get("exclude", [])
        return ("支付 X 个同一种类的精华（%sX 可为 %d）"
                % ("不能是" + types_zh(ex) + "；" if ex else "", p.get("min", 0)))
    if op == "remove_from_self":
        return "从此牌上移除 " + essences_zh(p["essences"])
    if op == "turn_own":
        return "横置你的另一个转正的%s" % TAG_ZH[p["filter"]["tag"]]
    if op == "destroy_self":
        return "摧毁此牌"
    if op == "destroy_own_artifact":
        f = p.get("filter", {})
        if f.get("tags_any"):
            what = "或".join(TAG_ZH[t] for t in f["tags_any"])
        else:
            what = "神器"
        if rival:
            return "摧毁%s一件在场上的%s" % (your, what)
        if f.get("exclude_self"):
            return "摧毁%s另一件%s" % (your, what)
        return "摧毁%s一件%s%s" % (your, what, "（也可以是此牌）" if kind == "artifact" else "")
    if op == "discard_from_hand":
        return "从%s手牌中弃掉 %d 张牌" % (your, p.get("count", 1))
    raise SystemExit("gen_arcana_texts: no zh-CN words for the cost op %s" % op)


def bound_zh(name):
    return {"destroyed": "被摧毁的神器", "discarded": "被弃掉的牌"}.get(name, "那张牌")


def effect_zh(e):
    op = e["op"]
    if op == "gain":
        return "获得 " + essences_zh(e["essences"])
    if op == "gain_any":
        return "获得" + any_n_zh(e["count"], e.get("exclude", []))
    if op == "gain_choice":
        return "获得 %d %s" % (e.get("count", 1), types_zh(e["options"]))
    if op == "place_on_self":
        return "将 %s放在此牌上" % essences_zh(e["essences"])
    if op == "place_any_on_self":
        return "将%s放在此牌上" % any_n_zh(e["count"], e.get("exclude", []))
    if op == "place_spent_on_self":
        return "将支付的精华放在此牌上"
    if op == "place_spent_on_own_component":
        return "将支付的精华放在你的一个元件上"
    if op == "rivals_gain":
        return "每个对手获得 " + essences_zh(e["essences"])
    if op == "rivals_lose_life":
        s = "每个对手失去 %d 生命" % e["amount"]
        if e.get("ignore_cost"):
            s += "，除非他们" + "并".join(cost_part_zh(p, True) for p in e["ignore_cost"])
        return s
    if op == "gain_equal_to_rival_pool":
        return ("选择一名对手：获得与其精华池中%s数量相同的%s"
                % (WORD_ZH[e["count"]], WORD_ZH[e["gain"]]))
    if op == "draw":
        return "抽 %d 张牌" % e["count"]
    if op == "draw_then_discard":
        return "抽 %d 张牌，然后弃掉与抽牌数相同的牌（至多 %d 张）" % (e["draw"], e["discard"])
    if op == "look_reorder":
        decks = {"own_artifact_deck": "你的牌库", "monument_deck": "纪念碑牌堆"}
        return ("查看%s顶部的 %d 张牌，并以任意顺序放回"
                % ("或".join(decks[d] for d in e["decks"]), e["count"]))
    if op == "straighten_own":
        what = TAG_ZH[e["filter"]["tag"]] if e.get("filter") else "元件"
        return "%s你的一个被横置的%s" % (
            "你可以转正" if e.get("optional", True) else "转正", what)
    if op == "straighten_self":
        return "转正此牌"
    if op == "gain_bound":
        if e["as"] == "gold":
            return "获得 X 黄金"
        return "获得 X 个同一%s种类的精华%s" % (
            "其他" if e.get("must_differ") else "", excluding_zh(e.get("exclude", [])))
    if op == "gain_from_printed_cost":
        plus = " + %d" % e["plus"] if e.get("plus") else ""
        what = bound_zh(e["from"])
        if e["as"] == "gold":
            return "获得等同于%s的印刷花费%s的黄金" % (what, plus)
        return "获得等同于%s的印刷花费%s数量的精华%s" % (
            what, plus, excluding_zh(e.get("exclude", [])))
    if op == "place_artifact":
        tag = e.get("filter", {}).get("tag")
        what = "一个" + TAG_ZH[tag] if tag else "一件神器"
        where = {"hand": "你的手牌", "own_discard": "你的弃牌堆",
                 "any_discard": "任意玩家的弃牌堆"}[e["from"]]
        mod = e.get("cost_modifier")
        if not mod:
            how = "支付其花费"
        elif mod.get("set_to_zero"):
            how = "免费"
        else:
            how = "花费减少 %d%s" % (mod["reduce"],
                                   "（黄金除外）" if "gold" in mod.get("exclude", []) else "")
        return "%s从%s放置%s，%s" % ("你可以" if e.get("optional", True) else "", where, what, how)
    if op == "check_victory":
        return "立即检查胜利"
    if op == "ignore_life_loss":
        return "忽略该次生命流失"
    if op == "temp_vp":
        return "仅在本次检查胜利时 +%d 胜利点数" % e["amount"]
    raise SystemExit("gen_arcana_texts: no zh-CN words for the effect op %s" % op)


def collect_zh(c):
    op = c["op"]
    if op in ("gain", "gain_any", "gain_choice"):
        return effect_zh(c)
    if op == "if_left_on_self":
        held = "精华" if c["essence"] == "any" else WORD_ZH[c["essence"]]
        then = []
        for t in c["then"]:
            then.append("为其上的每种精华各再加 2 个（加在此牌上）"
                        if t["op"] == "add_two_per_type_on_self" else effect_zh(t))
        return "若其上有%s且你将其上的精华留在上面，%s" % (held, "；".join(then))
    if op == "upkeep_or_turn":
        return "支付 %s 或横置此牌" % essences_zh(c["pay"])
    raise SystemExit("gen_arcana_texts: no zh-CN words for the collect op %s" % op)


def passive_zh(p):
    if p["op"] == "placement_discount":
        what = "神器" if p["applies_to"] == "artifact" else TAG_ZH[p["applies_to"]]
        return "你的%s放置花费减少 %d%s" % (
            what, p["amount"], "（黄金除外）" if "gold" in p.get("exclude", []) else "")
    raise SystemExit("gen_arcana_texts: no zh-CN words for the passive op %s" % p["op"])


def vp_per_zh(v):
    if v["per"] == "essence_on_self":
        return "其上每有 1 %s，+%d 胜利点数" % (WORD_ZH[v["essence"]], v["vp"])
    if v["per"] == "own_artifact_in_play_with_tag":
        return "你在场上每有一个%s，+%d 胜利点数" % (TAG_ZH[v["tag"]], v["vp"])
    raise SystemExit("gen_arcana_texts: no zh-CN words for the VP formula %s" % v["per"])


def power_zh(p, kind):
    head = "力量 %d" % p["index"]
    if p["kind"] == "react":
        head += "（%s%s）" % (TRIGGER_ZH[p["trigger"]],
                            "，横置时也可使用" if p.get("usable_when") == "either" else "")
    elif p.get("usable_when") == "turned":
        head += "（仅在此牌横置时）"
    cost = "，".join(cost_part_zh(c, False, kind) for c in p["cost"]) or "无花费"
    return "%s：%s → %s。" % (head, cost, "；".join(effect_zh(e) for e in p["effect"]))


def note_zh(n, ids):
    if n not in NOTES_ZH:
        raise SystemExit("gen_arcana_texts: no zh-CN words for the note %r" % n)
    text = NOTES_ZH[n]
    for ref in re.findall(r"@\{([a-z_]+)\}", text):
        if ref not in ids:
            raise SystemExit("gen_arcana_texts: the note %r names no card %s" % (n, ref))
    return text


def text_zh(c, ids):
    """The card's Chinese text after its name and id, '\n' between lines,
    not wrapped (the client wraps it by the width of its characters)."""
    head = "、".join([KIND_ZH[c["kind"]]] + [TAG_ZH[t] for t in c.get("tags", [])])
    if c.get("cost") is not None:
        head += "。花费：" + (essences_zh(c["cost"]) if c["cost"] else "0（无）")
    vp = ["%d 胜利点数" % c["vp"]] if c.get("vp") else []
    vp += [vp_per_zh(v) for v in c.get("vp_per", [])]
    if vp:
        head += "。" + "，".join(vp)
    lines = [head + "。"]
    pop = c.get("place_of_power")
    if pop:
        lines.append("第 %d 张板，%s 面（另一面：@{%s}）。" % (pop["card"], pop["side"],
                                                          pop["other_side_id"]))
    for x in c.get("collect", []):
        lines.append("收集：%s。" % collect_zh(x))
    for x in c.get("passives", []):
        lines.append("持续：%s。" % passive_zh(x))
    for x in c.get("on_claim", []):
        lines.append("拿取时：%s。" % effect_zh(x))
    for p in c.get("powers", []):
        lines.append(power_zh(p, c["kind"]))
    if c.get("first_game_preset"):
        lines.append("首次游戏：预组 %d。" % c["first_game_preset"])
    for n in c.get("notes", []):
        if not n.startswith("Checked against"):
            lines.append("注：" + note_zh(n, ids))
    return "\n".join(lines)


def short_cost(cost):
    """{"elan": 6, "any": 1} -> "E6 any1"; {} -> "0"; None -> ""."""
    if cost is None:
        return ""
    parts = ["%s%d" % (WORD[k][0], cost[k]) for k in ORDER if cost.get(k)]
    if cost.get("any"):
        parts.append("any%d" % cost["any"])
    return " ".join(parts) or "0"


def indexes(c, kind):
    return "".join(str(p["index"]) for p in c.get("powers", []) if p["kind"] == kind)


def main():
    data = json.load(open(sys.argv[1], encoding="utf-8"))
    names = {c["id"]: c["name"] for c in data}
    out = [
        "/* SPDX-License-Identifier: MIT */",
        "/* Generated by client-cli/render/gen_arcana_texts.py from",
        " * server/games/arcana/data/arcana-cards.json: do not edit. */",
        '#include "arcana_texts.h"',
        "",
        "const struct arcana_text arcana_texts[] = {",
    ]
    for c in data:
        body = text(c)
        if c.get("place_of_power"):
            other = c["place_of_power"]["other_side_id"]
            body = body.replace("other side: %s" % other, "other side: %s" % names[other])
        out.append("    {%s, %s, %s, %s, %s, %s," % (
            c_string(c["id"]), c_string(c["name"]), c_string(c["kind"]),
            c_string(short_cost(c.get("cost"))), c_string(indexes(c, "action")),
            c_string(indexes(c, "react"))))
        out.append("     %s," % c_string(body))
        out.append("     %s}," % c_string(text_zh(c, names)))
    out += ["};", "",
            "const size_t arcana_ntexts = sizeof(arcana_texts) / sizeof(arcana_texts[0]);", ""]
    sys.stdout.write("\n".join(out))


if __name__ == "__main__":
    main()
