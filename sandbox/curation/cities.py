"""Curation (run by hand, not at runtime): write `sandbox/data/cities.csv` and `airports.csv`.

Reads the `adcodes.csv` of the MIT-licensed `cpca` 0.5.5 package and the `airports.csv` of the
MIT-licensed `airportsdata` package, given as paths, so the runtime needs neither package.
Cities kept: the four municipalities, every prefecture-level unit, every county-level city
directly under a province, and every extra name asked for (task cities), with renames after
the cpca vintage (~2019) applied by hand. Airports: Chinese ones with an IATA code, each named
after its nearest kept city.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import math
from collections.abc import Iterable
from pathlib import Path

from sandbox.world.geography import short_name

DATA = Path(__file__).resolve().parents[1] / "data"

RENAMES = {"那曲地区": "那曲市"}
DROPPED = {"莱芜市"}
PLACEHOLDERS = {"市辖区", "县", "省直辖县级行政区划", "自治区直辖县级行政区划"}
MUNICIPALITIES = {"11", "12", "31", "50"}
NO_HSR = {
    "拉萨市", "稻城县", "九寨沟县", "阿勒泰市", "香格里拉市", "康定市", "甘南藏族自治州", "汶川县",
    "阿坝藏族羌族自治州", "甘孜藏族自治州", "瑞丽市", "芒市", "腾冲市", "敦煌市", "延安市", "鄂尔多斯市",
}  # fmt: skip
HSR_IN_WEST = {"乌鲁木齐市", "吐鲁番市", "哈密市", "西宁市", "海东市", "海北藏族自治州"}
WEST_PROVINCES = {"54", "63", "65"}
PRICE_LEVEL = {
    **dict.fromkeys(["北京市", "上海市", "深圳市", "广州市"], "1.30"),
    **dict.fromkeys(
        ["杭州市", "南京市", "苏州市", "成都市", "厦门市", "三亚市", "青岛市", "天津市", "重庆市"], "1.15"
    ),
}
AIRPORT_NAMES = {
    "PEK": "北京首都国际机场",
    "PKX": "北京大兴国际机场",
    "PVG": "上海浦东国际机场",
    "SHA": "上海虹桥国际机场",
    "CTU": "成都双流国际机场",
    "TFU": "成都天府国际机场",
}


def _keep(adcode: str, name: str, extra: set[str]) -> bool:
    if name in extra:
        return True
    if name in PLACEHOLDERS or name in DROPPED:
        return False
    prov, pref, county = adcode[:2], adcode[2:4], adcode[4:6]
    if pref == "00":
        return prov in MUNICIPALITIES and county == "00"
    if county == "00":
        return prov not in MUNICIPALITIES
    return pref == "90"


def _hsr(name: str, adcode: str) -> str:
    if name in NO_HSR:
        return "0"
    if adcode[:2] in WEST_PROVINCES:
        return "1" if name in HSR_IN_WEST else "0"
    return "1"


def curate_cities(adcodes_csv: str, extra: Iterable[str]) -> list[dict[str, str]]:
    """Rows name, short, province, adcode (6 digits), lon, lat, hsr, price_level, by adcode."""
    wanted = set(extra)
    rows = list(csv.DictReader(io.StringIO(adcodes_csv)))
    provinces = {r["adcode"][:2]: r["name"] for r in rows if r["adcode"][2:] == "0" * 10}
    out = []
    for r in rows:
        adcode, name = r["adcode"][:6], r["name"]
        if not r["longitude"] or not _keep(r["adcode"], name, wanted):
            continue
        name = RENAMES.get(name, name)
        out.append(
            {
                "name": name,
                "short": short_name(name),
                "province": provinces[adcode[:2]],
                "adcode": adcode,
                "lon": f"{float(r['longitude']):.6f}",
                "lat": f"{float(r['latitude']):.6f}",
                "hsr": _hsr(name, adcode),
                "price_level": PRICE_LEVEL.get(name, "1.00"),
            }
        )
    missing = wanted - {r["name"] for r in out} - set(RENAMES)
    if missing:
        raise ValueError(f"cities not found in adcodes.csv: {sorted(missing)}")
    return sorted(out, key=lambda r: r["adcode"])


def _km(lon1: float, lat1: float, lon2: float, lat2: float) -> float:
    p1, p2 = math.radians(lat1), math.radians(lat2)
    a = (
        math.sin((p2 - p1) / 2) ** 2
        + math.cos(p1) * math.cos(p2) * math.sin(math.radians(lon2 - lon1) / 2) ** 2
    )
    return 2 * 6371.0088 * math.asin(math.sqrt(a))


def curate_airports(airports_csv: str, cities: list[dict[str, str]]) -> list[dict[str, str]]:
    """Rows iata, name, lon, lat, near (nearest kept city), by IATA code."""
    rows = [r for r in csv.DictReader(io.StringIO(airports_csv)) if r["country"] == "CN" and r["iata"]]
    out = []
    for r in rows:
        lon, lat = float(r["lon"]), float(r["lat"])
        near = min(cities, key=lambda c: (_km(lon, lat, float(c["lon"]), float(c["lat"])), c["adcode"]))
        name = AIRPORT_NAMES.get(r["iata"], f"{near['short']}机场({r['iata']})")
        out.append(
            {"iata": r["iata"], "name": name, "lon": f"{lon:.5f}", "lat": f"{lat:.5f}", "near": near["name"]}
        )
    return sorted(out, key=lambda r: r["iata"])


def write_csv(path: Path, rows: list[dict[str, str]]) -> None:
    """Write rows with a header, LF line ends, atomically."""
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(buf.getvalue(), encoding="utf-8")
    tmp.replace(path)


def task_city_names(task_files: Iterable[Path]) -> set[str]:
    """Departure and destination cities of every task in JSONL task files."""
    names: set[str] = set()
    for path in task_files:
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                meta = json.loads(line)["metadata"]
                names |= {meta["departure_city"], *meta["cities"]}
    return names


def main(argv: list[str] | None = None) -> None:
    """`python -m sandbox.curation.cities ADCODES_CSV AIRPORTS_CSV TASKS.jsonl …` rewrites sandbox/data."""
    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("adcodes", type=Path, help="cpca 0.5.5 resources/adcodes.csv")
    parser.add_argument("airports", type=Path, help="airportsdata airports.csv")
    parser.add_argument("tasks", type=Path, nargs="+", help="task JSONL files whose cities must be kept")
    args = parser.parse_args(argv)
    cities = curate_cities(args.adcodes.read_text(encoding="utf-8"), task_city_names(args.tasks))
    write_csv(DATA / "cities.csv", cities)
    write_csv(DATA / "airports.csv", curate_airports(args.airports.read_text(encoding="utf-8"), cities))


if __name__ == "__main__":
    main()
