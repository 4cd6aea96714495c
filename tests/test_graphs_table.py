"""The one frontier table: keys and counts of any width, salted or not, any growth point,
agree with a dict; a find adds nothing; a stored value replaces the one there."""

from __future__ import annotations

from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazysearch.engine import _native

MASK64 = (1 << 64) - 1


def _modules() -> list[ModuleType]:
    """The table as loaded (compiled where built) and as plain Python."""
    module = _native.load("lazysearch.graphs._table")
    return [module, module.plain()]


@st.composite
def _cases(draw: st.DrawFn) -> tuple[int, int, int, int, list[tuple[int, int]]]:
    kw = draw(st.integers(1, 4))
    limbs = draw(st.integers(1, 2))
    salt = draw(st.sampled_from([0, 0x9E3779B97F4A7C15, 12345]))
    growth = draw(st.sampled_from([50, 70, 90]))
    # Few distinct keys, drawn again and again, and their low words often equal: the
    # probes compare the higher words too.
    pool = draw(
        st.lists(
            st.tuples(st.integers(0, 3), st.integers(0, (1 << (64 * kw - 64)) - 1)),
            min_size=1,
            max_size=40,
        )
    )
    keys = [low | high << 64 for low, high in pool]
    adds = draw(
        st.lists(
            st.tuples(st.sampled_from(keys), st.integers(0, (1 << (64 * limbs - 1)) - 1)),
            max_size=120,
        )
    )
    return kw, limbs, salt, growth, adds


@settings(deadline=None)
@given(_cases())
def test_a_table_adds_up_as_a_dict_does(
    case: tuple[int, int, int, int, list[tuple[int, int]]],
) -> None:
    kw, limbs, salt, growth, adds = case
    expected: dict[int, int] = {}
    for key, count in adds:
        expected[key] = expected.get(key, 0) + count
    for module in _modules():
        table = module.Table(10**6, 2, limbs, kw, salt, growth)
        for key, count in adds:
            assert module.STATUS[table.add_key(key, count)] == "ok"
        assert table.items() == expected and table.used == len(expected)
        assert table.used <= table.size * growth // 100
        copy = module.Table(10**6, 2, limbs, kw, salt ^ 1, growth)
        assert module.STATUS[copy.add_table(table)] == "ok"
        assert copy.items() == expected
        keys, counts = table.export()
        exported = {
            sum(keys[e * kw + t] << (64 * t) for t in range(kw)): count
            for e, count in enumerate(counts)
        }
        assert exported == expected and list(exported) == list(table.items())
        if expected:
            widened = table.widened(limbs + 1)
            assert widened.items() == expected and widened.salt == salt


@settings(deadline=None)
@given(_cases())
def test_find_adds_nothing_and_store_replaces(
    case: tuple[int, int, int, int, list[tuple[int, int]]],
) -> None:
    kw, limbs, salt, growth, adds = case
    plain = _native.load("lazysearch.graphs._table").plain()
    table = plain.Table(10**6, 2, limbs, kw, salt, growth)
    expected: dict[int, int] = {}
    for key, value in adds:
        words = [(key >> (64 * t)) & MASK64 for t in range(kw)]
        before = table.find(words, 0)
        assert (before >= 0) == (key in expected)
        assert table.used == len(expected)
        values = [(value >> (64 * t)) & MASK64 for t in range(limbs)]
        second = words[1] if kw > 1 else 0
        assert table.put(words[0], second, words, 0, values, 0, False) == plain.OK
        expected[key] = value
        at = table.find(words, 0)
        assert at >= 0 and table.key_at(at) == key and table.count_at(at + kw) == value
    assert table.items() == expected


def test_statuses_and_refusals() -> None:
    for module in _modules():
        small = module.Table(2, size=4)
        assert module.STATUS[small.add_key(1, 1)] == module.STATUS[small.add_key(2, 1)] == "ok"
        assert module.STATUS[small.add_key(3, 1)] == "full"
        assert module.STATUS[small.add_key(1, MASK64)] == "overflow"
        assert module.STATUS[small.add_key(1 << 64, 1)] == "overflow"
        with pytest.raises(ValueError, match="0xffffffffffffffff"):
            small.add_key(MASK64, 1)
        with pytest.raises(ValueError, match="growth=100"):
            module.Table(10, growth=100)
        with pytest.raises(ValueError, match="2-word keys"):
            small.add_table(module.Table(10, kw=2))


def test_a_salted_table_filled_in_another_ones_order_does_not_cluster() -> None:
    """Filled in the slot order of a table of the same hash, a growing table piles the
    keys into one run while it is the smaller; a salt of its own spreads them."""
    module = _modules()[0]
    source = module.Table(1 << 20, 256, 1, 3, 0x9E3779B97F4A7C15, 70)
    for i in range(1, 20_001):
        assert module.STATUS[source.add_key((i * 0x9E3779B97F4A7C15) % (1 << 170), i)] == "ok"
    copy = module.Table(1 << 20, 256, 1, 3, 2 * 0x9E3779B97F4A7C15 & MASK64, 70)
    assert module.STATUS[copy.add_table(source)] == "ok"
    assert copy.items() == source.items() and copy.probes < 3 * 20_000
