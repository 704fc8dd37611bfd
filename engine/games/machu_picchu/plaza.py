"""The Central Plaza's trade: a visit trades once, the whole exchange as one decision.

The rulebook (zh.full 中央广场): "每当玩家的王子进入中央广场，即可以玉米作货币，出售或购买任何数量
的物品" — on entering the plaza a player may sell or buy any number of goods, paying in corn;
"即可从…市场内，加入或移走1件物品以影响该物品的价格" — and may first add or remove 1 good to
sway its price (zh.districts_night: "在市场交易之前").  Nothing limits the number of goods, so
a visit's trade is one decision naming them all: the optional adjustment, the goods sold and
the goods bought.  Taken one good at a time, buy-and-sell cycles that gain nothing could go on
for thousands of moves; as one decision every visit ends after it.

A trade is carried out in the rulebook's order, one good at a time: the adjustment, then every
sale (pushing that column's price down as it fills), then every purchase (each paid at the
price of the field it leaves).  A good is either sold or bought in one trade, never both:
selling a good and buying it back puts it on the same field and pays the same price, so it
changes nothing.  The whole trade is checked before anything changes.

Games recorded before (their GameCreated pins an older rules version) traded one good at a
time, ending the visit with "done"; ``STEPS`` marks their state and ``rules`` keeps that way
for them, so they replay exactly.
"""
from __future__ import annotations

from engine.core import IllegalAction
from engine.text import Phrase, phrase, term

from . import data

WHOLE = "whole"      # state["plaza"]: one decision per visit (games of this rules version on)
STEPS = "steps"      # state["plaza"]: one good per decision (games of rules versions 1 to 4)
STEP_VERSIONS = frozenset({"1", "2", "3", "4"})
ADJUSTMENTS = ("add", "remove")
KEYS = frozenset({"type", "sell", "buy", *ADJUSTMENTS})


def _good(good: str) -> Phrase:
    return term(data.ICON_NAMES[good])


def buy_price(market: dict, good: str) -> int:
    filled = market[good]
    return data.MARKET_PRICES[filled - 1] if filled else data.BANK_BUY_PRICE


def sell_price(market: dict, good: str) -> int:
    filled = market[good]
    return data.MARKET_PRICES[filled] if filled < len(data.MARKET_PRICES) else data.BANK_SELL_PRICE


def trade(sell: dict | None = None, buy: dict | None = None, **adjust: str) -> dict:
    """A trade action in its one written form (``adjust``: ``add=good`` or ``remove=good``)."""
    return {"type": "trade", **adjust, "sell": dict(sell or {}), "buy": dict(buy or {})}


def _counts(action: dict, key: str) -> dict:
    counts = action.get(key, {})
    if not isinstance(counts, dict):
        raise IllegalAction(phrase("a trade's {part} must name goods and how many",
                                   part=key))
    for good, n in counts.items():
        if good not in data.MARKET_GOODS:
            raise IllegalAction(phrase("the market trades no {good}", good=str(good)[:40]))
        if type(n) is not int or n < 1:
            raise IllegalAction(phrase("a trade names how many of each good as a whole number "
                                       "from 1"))
    return {g: counts[g] for g in data.MARKET_GOODS if g in counts}


def parsed(action: dict) -> dict:
    """``action`` as a trade in its written form, or ``IllegalAction`` saying what is wrong
    with its shape (what the market and the seat allow is ``carried_out``'s to say)."""
    unknown = sorted(map(str, set(action) - KEYS))
    if unknown:
        raise IllegalAction(phrase("a trade has no {part}", part=", ".join(unknown)[:80]))
    adjust = {k: action[k] for k in ADJUSTMENTS if k in action}
    if len(adjust) > 1:
        raise IllegalAction(phrase("a visit adds or removes one good before trading, not both"))
    for good in adjust.values():
        if good not in data.MARKET_GOODS:
            raise IllegalAction(phrase("the market trades no {good}", good=str(good)[:40]))
    sell, buy = _counts(action, "sell"), _counts(action, "buy")
    if set(sell) & set(buy):
        raise IllegalAction(phrase("a trade sells a good or buys it, not both"))
    if not (adjust or sell or buy):
        raise IllegalAction(phrase("this trade changes nothing; leave the market instead"))
    return trade(sell, buy, **adjust)


def carried_out(state: dict, seat: int, wanted: dict) -> dict:
    """What the trade ``wanted`` (written form) leaves: ``{"market", "bank", "goods"}`` as new
    dicts, and the corn each good's sale or purchase came to (``"sold"``, ``"bought"``).
    Raises ``IllegalAction`` if any step of it is impossible; ``state`` is never changed."""
    market, bank = dict(state["market"]), dict(state["bank"])
    goods = dict(state["players"][seat]["goods"])
    top = len(data.MARKET_PRICES)
    if "add" in wanted:
        good = wanted["add"]
        if market[good] >= top or bank[good] < 1:
            raise IllegalAction(phrase("no {good} can be added to the market now",
                                       good=_good(good)))
        bank[good], market[good] = bank[good] - 1, market[good] + 1
    if "remove" in wanted:
        good = wanted["remove"]
        if market[good] < 1:
            raise IllegalAction(phrase("the market holds no {good} to remove",
                                       good=_good(good)))
        bank[good], market[good] = bank[good] + 1, market[good] - 1
    sold = {g: _sell(market, bank, goods, g, n) for g, n in wanted["sell"].items()}
    bought = {g: _buy(market, bank, goods, g, n) for g, n in wanted["buy"].items()}
    return {"market": market, "bank": bank, "goods": goods, "sold": sold, "bought": bought}


def _sell(market: dict, bank: dict, goods: dict, good: str, n: int) -> int:
    if goods[good] < n:
        raise IllegalAction(phrase("you have fewer than {n} {good} to sell",
                                   n=n, good=_good(good)))
    total = 0
    for _ in range(n):
        price = sell_price(market, good)
        if bank["corn"] < price:
            raise IllegalAction(phrase("the bank has too little corn to pay for this trade"))
        sell_one(market, bank, goods, good, price)
        total += price
    return total


def _buy(market: dict, bank: dict, goods: dict, good: str, n: int) -> int:
    if market[good] + bank[good] < n:
        raise IllegalAction(phrase("the market and the bank have fewer than {n} {good}",
                                   n=n, good=_good(good)))
    total = 0
    for _ in range(n):
        price = buy_price(market, good)
        if goods["corn"] < price:
            raise IllegalAction(phrase("you have too little corn for this trade"))
        buy_one(market, bank, goods, good, price)
        total += price
    return total


def sell_one(market: dict, bank: dict, goods: dict, good: str, price: int) -> None:
    """One good sold for ``price`` corn: onto the market while it has room, else to the bank.
    Both the whole trade and the older step-by-step trade sell through here."""
    if market[good] < len(data.MARKET_PRICES):
        market[good] += 1
    else:
        bank[good] += 1
    goods[good] -= 1
    goods["corn"] += price
    bank["corn"] -= price


def buy_one(market: dict, bank: dict, goods: dict, good: str, price: int) -> None:
    """One good bought for ``price`` corn: from the market while it has some, else the bank."""
    if market[good]:
        market[good] -= 1
    else:
        bank[good] -= 1
    goods["corn"] -= price
    bank["corn"] += price
    goods[good] += 1


def possible(state: dict, seat: int, wanted: dict) -> bool:
    try:
        carried_out(state, seat, wanted)
    except IllegalAction:
        return False
    return True


def offered(state: dict, seat: int) -> list[dict]:
    """The trades a mail or page offers as links: the adjustment alone, and buying or selling
    one good (1, 2 or 3 of it, or all one has); any other whole exchange is composed on the
    page and checked by ``carried_out``.  Only trades possible now are listed."""
    goods = state["players"][seat]["goods"]
    candidates = [trade(**{way: g}) for way in ADJUSTMENTS for g in data.MARKET_GOODS]
    for g in data.MARKET_GOODS:
        amounts = sorted({1, 2, 3, goods[g]} - {0})
        candidates.extend(trade(sell={g: n}) for n in amounts if n <= goods[g])
    for g in data.MARKET_GOODS:
        candidates.extend(trade(buy={g: n}) for n in (1, 2, 3))
    return [t for t in candidates if possible(state, seat, t)]
