"""The official POI file (`all_poi_by_city.json`) and the two resolvers that read it.

Format (docs/official.md#the-poi-file): `{city key: [{name, custom_category, poi_type, opening_hours}, …]}`.
Names resolve per city: an exact name first, else the stored name that contains the query
with the highest `len(query) / len(name)` (the first such name in file order on ties).
Categories fall back by `poi_type` and are folded onto the preference vocabulary; opening
hours return the windows of the first applicable rule, with the official early "closed"
exit (docs/official.md#the-poi-file). The file is read once and indexed per city; matches are memoised.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson

from verifier.errors import StructuredError
from verifier.official.primitives import parse_date

VALID_HOTEL_CATEGORIES = frozenset(
    {
        "舒适型",
        "经济型",
        "高档型",
        "民宿",
        "商务酒店",
        "豪华型",
        "快捷酒店",
        "旅馆",
        "客栈",
        "度假酒店",
        "电竞酒店",
        "公寓式酒店",
        "主题酒店",
    }
)
_FALLBACK_BY_TYPE = {"attractions": "公园", "food": "中餐", "hotels": "商务酒店"}
_ATTRACTION_AS_PARK = frozenset({"旅游景点", "滑雪", "游客中心"})
_FOOD_AS_CHINESE = frozenset({"食堂", "米粉"})
_ALL_WEEKDAYS = [1, 2, 3, 4, 5, 6, 7]
_UNSEEN: Any = object()


class PoiDbError(StructuredError, ValueError):
    """The POI file cannot be read or does not have the official shape (the message names the
    file and the field)."""

    def __init__(self, problem: str) -> None:
        super().__init__("", problem)


class PoiDb:
    """Indexed official POI data: name matching, categories and opening windows."""

    def __init__(self, by_city: dict[str, list[dict[str, Any]]]) -> None:
        self._index: dict[str, dict[str, dict[str, Any]]] = {}
        for city, pois in by_city.items():
            names: dict[str, dict[str, Any]] = {}
            for poi in pois:
                name = poi.get("name") if isinstance(poi, dict) else None
                if name and isinstance(name, str):
                    names[name] = poi
            self._index[city] = names
        self._memo: dict[tuple[Any, Any], dict[str, Any] | None] = {}
        self._categories: dict[tuple[Any, Any], str | None] = {}
        self._windows: dict[tuple[Any, Any, str], list[dict[str, Any]] | None] = {}

    @classmethod
    def load(cls, path: str | Path) -> PoiDb:
        """Read a POI file; raise PoiDbError naming the problem."""
        try:
            data = orjson.loads(Path(path).read_bytes())
        except OSError as exc:
            raise PoiDbError(f"cannot read POI file {path}: {exc.strerror}") from exc
        except orjson.JSONDecodeError as exc:
            raise PoiDbError(f"POI file {path} is not JSON: {exc}") from exc
        if not isinstance(data, dict):
            raise PoiDbError(f"POI file {path}: top level must be an object {{city: [poi, …]}}")
        for city, pois in data.items():
            if not isinstance(pois, list):
                raise PoiDbError(f"POI file {path}: value of city {city!r} must be a list of POIs")
        return cls(data)

    @property
    def cities(self) -> list[str]:
        return list(self._index)

    def match(self, query: Any, city: Any) -> dict[str, Any] | None:
        """The POI a name refers to in a city (exact key, no suffix folding), or None."""
        names = self._index.get(city)
        if names is None:
            return None
        key = (city, query)
        if key in self._memo:
            return self._memo[key]
        found = names.get(query)
        if found is None:
            best_ratio = 0.0
            for name, poi in names.items():
                if query in name:
                    ratio = len(query) / len(name)
                    if ratio > best_ratio:
                        best_ratio, found = ratio, poi
        self._memo[key] = found
        return found

    def category(self, query: Any, city: Any) -> str | None:
        """The preference-vocabulary category of the POI a name resolves to (docs/official.md#the-poi-file),
        memoised."""
        if city not in self._index:
            return None
        key = (city, query)
        category: str | None = self._categories.get(key, _UNSEEN)
        if category is _UNSEEN:
            category = self._categories[key] = self._resolve_category(query, city)
        return category

    def _resolve_category(self, query: Any, city: Any) -> str | None:
        poi = self.match(query, city)
        if poi is None:
            return None
        category = poi.get("custom_category", "")
        poi_type = poi.get("poi_type", "unknown")
        if not category:
            return _FALLBACK_BY_TYPE.get(poi_type)
        if poi_type == "hotels" and category not in VALID_HOTEL_CATEGORIES:
            return "商务酒店"
        if poi_type == "attractions" and category in _ATTRACTION_AS_PARK:
            return "公园"
        if poi_type == "food" and category in _FOOD_AS_CHINESE:
            return "中餐"
        return str(category)

    def time_windows(self, query: Any, city: Any, date: Any) -> list[dict[str, Any]] | None:
        """Windows on a date: None = unknown/always open/no rule, [] = closed (docs/official.md#the-poi-file).

        Memoised per (city, name, date) when the date is a string; the city is looked up
        first so that an unhashable name raises only where the official lookup would.
        """
        if city not in self._index or not isinstance(date, str):
            return self._resolve_windows(query, city, date)
        key = (city, query, date)
        windows: list[dict[str, Any]] | None = self._windows.get(key, _UNSEEN)
        if windows is _UNSEEN:
            windows = self._windows[key] = self._resolve_windows(query, city, date)
        return windows

    def _resolve_windows(self, query: Any, city: Any, date: Any) -> list[dict[str, Any]] | None:
        poi = self.match(query, city)
        if poi is None:
            return None
        hours = poi.get("opening_hours")
        if not hours or hours.get("always_open"):
            return None
        rules = hours.get("rules", [])
        day = parse_date(date)
        if not rules or day is None:
            return None
        weekday, month_day = day.isoweekday(), day.strftime("%m-%d")
        for rule in rules:
            date_range = rule.get("date_range")
            if date_range and not _in_range(month_day, date_range):
                continue
            if weekday not in rule.get("weekdays", _ALL_WEEKDAYS):
                return []
            windows: list[dict[str, Any]] = rule.get("time_windows", [])
            if windows:
                return windows
        return None

    def is_within_opening_hours(self, query: Any, city: Any, date: Any, start: Any, end: Any) -> bool | None:
        """None when hours are unknown; else whether [start, end] fits one window (raw string order)."""
        windows = self.time_windows(query, city, date)
        if windows is None:
            return None
        for window in windows:
            opens, closes = window.get("open"), window.get("close")
            if opens and closes and start >= opens and end <= closes:
                return True
        return False


def _in_range(month_day: str, date_range: dict[str, Any]) -> bool:
    start, end = date_range.get("start", "01-01"), date_range.get("end", "12-31")
    if start <= end:
        return bool(start <= month_day <= end)
    return bool(month_day >= start or month_day <= end)
