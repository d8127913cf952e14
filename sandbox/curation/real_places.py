"""Curate the real places shipped in `sandbox/data/` from `../shared/realdata/` (run by hand).

    python -m sandbox.curation.real_places <realdata dir> <cpca>/resources/adcodes.csv

Writes `real_attractions.csv` (every ChinaTravel attraction of its 10 cities, and the 5A
list's scenic areas nationwide), `real_hotels.csv` and `real_restaurants.csv` (a price-spread
sample of ChinaTravel's, `HOTELS_PER_CITY` / `RESTAURANTS_PER_CITY` per city) and
`districts.csv` (the county-level units of every curated city, from cpca). Coordinates are
converted to WGS-84 here, once (ChinaTravel attractions and the 5A list are BD-09, ChinaTravel
hotels and restaurants and cpca GCJ-02; measured in docs/world.md). Re-running reproduces the files.
"""

from __future__ import annotations

import csv
import re
import sys
from collections.abc import Iterable
from pathlib import Path

from sandbox.curation.coords import to_wgs84
from sandbox.world.geography import DATA_DIR, curated_cities, short_index

CHINATRAVEL_CITIES = {
    "beijing": "北京市",
    "shanghai": "上海市",
    "nanjing": "南京市",
    "suzhou": "苏州市",
    "hangzhou": "杭州市",
    "shenzhen": "深圳市",
    "chengdu": "成都市",
    "wuhan": "武汉市",
    "guangzhou": "广州市",
    "chongqing": "重庆市",
}
HOTELS_PER_CITY = 40
RESTAURANTS_PER_CITY = 60
ROOM_CNY = (100.0, 4000.0)  # outside: dormitory beds and suites, not a double room
MEAL_CNY = (10.0, 1000.0)
ATTRACTION_FIELDS = (
    "source",
    "city",
    "name",
    "tags",
    "lon",
    "lat",
    "open",
    "close",
    "price_cny",
    "visit_min_h",
    "visit_max_h",
    "rating",
    "grade",
    "area",
)
HOTEL_FIELDS = ("source", "city", "name", "feature", "lon", "lat", "room_cny")
DISTRICT_FIELDS = ("city", "name", "lon", "lat")
RESTAURANT_FIELDS = ("source", "city", "name", "cuisine", "lon", "lat", "price_cny", "open", "close")
_5A = re.compile(
    r"title:\s*'([^']*)',.*?city:\s*'([^']*)',\s*area:\s*'([^']*)',\s*grade:\s*'([^']*)',"
    r".*?longitude:\s*([\d.]+).*?latitude:\s*([\d.]+)",
    re.DOTALL,
)


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8-sig", newline="") as fh:
        return list(csv.DictReader(fh))


def _point(lon: str, lat: str, datum: str) -> tuple[str, str]:
    x, y = to_wgs84(float(lon), float(lat), datum)
    return f"{x:.6f}", f"{y:.6f}"


def _spread(rows: list[dict[str, str]], key: str, k: int) -> list[dict[str, str]]:
    """`k` rows evenly spaced over the rows sorted by price (then id): cheap to dear."""
    ordered = sorted(rows, key=lambda r: (float(r[key]), int(r["id"])))
    if len(ordered) <= k:
        return ordered
    return [ordered[round(i * (len(ordered) - 1) / (k - 1))] for i in range(k)]


def chinatravel_attractions(root: Path) -> list[dict[str, str]]:
    """Every ChinaTravel attraction, WGS-84."""
    out = []
    for slug, city in CHINATRAVEL_CITIES.items():
        for r in _rows(root / "chinatravel" / "attractions" / slug / "attractions.csv"):
            lon, lat = _point(r["lon"], r["lat"], "bd09")
            out.append(
                {
                    "source": "ChinaTravel",
                    "city": city,
                    "name": r["name"].strip(),
                    "tags": r["type"].strip("{}"),
                    "lon": lon,
                    "lat": lat,
                    "open": r["opentime"],
                    "close": r["endtime"],
                    "price_cny": r["price"],
                    "visit_min_h": r["recommendmintime"],
                    "visit_max_h": r["recommendmaxtime"],
                    "rating": r["star"],
                    "grade": "",
                    "area": "",
                }
            )
    return out


def scenic_5a(root: Path) -> list[dict[str, str]]:
    """The 5A list's scenic areas whose city is curated, WGS-84 (Baidu picker = BD-09)."""
    cities = curated_cities()
    shorts = short_index(list(cities), {n: i.short for n, i in cities.items()})
    text = (root / "scenic5a" / "jsondata.js").read_text(encoding="utf-8")
    start = text.index("scenicspotList_5A")
    out = []
    for title, city, area, grade, lng, lat in _5A.findall(text, start):
        key = city if city in cities else shorts.get(city) or (city + "市" if city + "市" in cities else None)
        if key is None or not title.strip():
            continue
        lon, la = _point(lng, lat, "bd09")
        out.append(
            {
                "source": "scenic5a",
                "city": key,
                "name": title.strip(),
                "tags": "",
                "lon": lon,
                "lat": la,
                "open": "",
                "close": "",
                "price_cny": "",
                "visit_min_h": "",
                "visit_max_h": "",
                "rating": "",
                "grade": grade,
                "area": area,
            }
        )
    return out


def hotels(root: Path) -> list[dict[str, str]]:
    """A price-spread sample of ChinaTravel hotels per city (room = double-bed price), WGS-84."""
    out = []
    for slug, city in CHINATRAVEL_CITIES.items():
        rows = [r for r in _rows(root / "chinatravel" / "accommodations" / slug / "accommodations.csv")
                if ROOM_CNY[0] <= float(r["double_bed_price"] or 0) <= ROOM_CNY[1]]  # fmt: skip
        for r in _spread(rows, "double_bed_price", HOTELS_PER_CITY):
            lon, lat = _point(r["lon"], r["lat"], "gcj02")
            out.append(
                {
                    "source": "ChinaTravel",
                    "city": city,
                    "name": r["name"].strip(),
                    "feature": r["featurehoteltype"],
                    "lon": lon,
                    "lat": lat,
                    "room_cny": r["double_bed_price"],
                }
            )
    return out


def restaurants(root: Path) -> list[dict[str, str]]:
    """A price-spread sample of ChinaTravel restaurants per city, WGS-84."""
    out = []
    for slug, city in CHINATRAVEL_CITIES.items():
        path = root / "chinatravel" / "restaurants" / slug / f"restaurants_{slug}.csv"
        rows = [
            r
            for r in _rows(path)
            if MEAL_CNY[0] <= float(r["price"] or 0) <= MEAL_CNY[1] and r["opentime"] and r["endtime"]
        ]
        for r in _spread(rows, "price", RESTAURANTS_PER_CITY):
            lon, lat = _point(r["lon"], r["lat"], "gcj02")
            out.append(
                {
                    "source": "ChinaTravel",
                    "city": city,
                    "name": r["name"].strip(),
                    "cuisine": r["cuisine"],
                    "lon": lon,
                    "lat": lat,
                    "price_cny": r["price"],
                    "open": r["opentime"],
                    "close": r["endtime"],
                }
            )
    return out


def districts(adcodes_csv: Path) -> list[dict[str, str]]:
    """County-level units (districts, counties, county-level cities) of curated cities, WGS-84."""
    by_code = {i.city.adcode: n for n, i in curated_cities().items()}
    out = []
    for r in sorted(_rows(adcodes_csv), key=lambda r: r["adcode"]):
        code = r["adcode"][:6]
        if code.endswith("00") or not r["longitude"]:
            continue
        city = by_code.get(code[:4] + "00") or by_code.get(code[:2] + "0000")
        if city is None or r["name"] in ("市辖区", city):
            continue
        lon, lat = _point(r["longitude"], r["latitude"], "gcj02")
        out.append({"city": city, "name": r["name"], "lon": lon, "lat": lat})
    return out


def write_csv(path: Path, fields: Iterable[str], rows: list[dict[str, str]]) -> None:
    """UTF-8 CSV with a header and LF line ends."""
    with path.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(fields), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


def main(argv: list[str] | None = None) -> None:
    """Regenerate the real-place and district CSVs."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2:
        raise SystemExit("usage: python -m sandbox.curation.real_places <realdata dir> <cpca adcodes.csv>")
    root = Path(args[0])
    write_csv(DATA_DIR / "districts.csv", DISTRICT_FIELDS, districts(Path(args[1])))
    write_csv(
        DATA_DIR / "real_attractions.csv", ATTRACTION_FIELDS, chinatravel_attractions(root) + scenic_5a(root)
    )
    write_csv(DATA_DIR / "real_hotels.csv", HOTEL_FIELDS, hotels(root))
    write_csv(DATA_DIR / "real_restaurants.csv", RESTAURANT_FIELDS, restaurants(root))


if __name__ == "__main__":
    main()
