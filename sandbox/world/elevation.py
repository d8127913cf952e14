"""Elevation of the task cities that lie high (≥ 700 m), in metres above sea level.

Approximate elevation of the city or prefecture seat, rounded to 50 m, from public gazetteer
figures (a prefecture is its seat: 甘孜 = 康定, 甘南 = 合作, 海北 = 西海镇, 阿坝 = 马尔康). Every
other city counts as lowland (0 m): the rest of the task cities lie below about 500 m.
"""

from __future__ import annotations

ELEVATION_M: dict[str, int] = {
    "拉萨市": 3650,
    "稻城县": 3750,
    "香格里拉市": 3300,
    "海北藏族自治州": 3000,
    "甘南藏族自治州": 2950,
    "阿坝藏族羌族自治州": 2600,
    "康定市": 2550,
    "甘孜藏族自治州": 2550,
    "丽江市": 2400,
    "西宁市": 2250,
    "大理市": 2000,
    "昆明市": 1900,
    "嘉峪关市": 1650,
    "保山市": 1650,
    "腾冲市": 1650,
    "兰州市": 1500,
    "张掖市": 1500,
    "九寨沟县": 1400,
    "安顺市": 1400,
    "汶川县": 1350,
    "鄂尔多斯市": 1350,
    "普洱市": 1300,
    "中卫市": 1250,
    "敦煌市": 1150,
    "银川市": 1100,
    "贵阳市": 1100,
    "呼和浩特市": 1050,
    "包头市": 1050,
    "大同市": 1050,
    "延安市": 950,
    "阿勒泰市": 900,
    "芒市": 900,
    "乌鲁木齐市": 800,
    "太原市": 800,
    "忻州市": 800,
    "瑞丽市": 800,
    "张家口市": 750,
}


def elevation_m(city: str) -> int:
    """A city's elevation in metres (0 for the lowland cities)."""
    return ELEVATION_M.get(city, 0)
