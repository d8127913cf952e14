"""Per-category facts of generated POIs: name suffixes, price range, visit length, hours pattern.

Magnitudes follow common Chinese practice (docs/world.md): museums and parks mostly free,
temples 10–60 CNY, 4A/5A scenic areas 60–260, theme parks 200–450; a meal 15–40 CNY at a
snack bar, 60–120 at a regional restaurant, 120–300 for seafood or Japanese; a room
100–200 CNY/night in a hostel, 150–300 budget, 250–450 business, 450–900 upscale, 1000–2200 luxury.
Unknown categories fall back to a generic spec of their kind.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Spec:
    """How to generate POIs of one category (prices in CNY before the city's price level)."""

    suffixes: tuple[str, ...]
    price: tuple[int, int]
    visit: tuple[int, int] = (60, 120)
    hours: str = "day"
    spread_km: float = 8.0


def _a(
    suffixes: str, price: tuple[int, int], visit: tuple[int, int], hours: str, spread: float = 12.0
) -> Spec:
    return Spec(_w(suffixes), price, visit, hours, spread)


def _w(text: str) -> tuple[str, ...]:
    return tuple(text.split())


ATTRACTIONS: dict[str, Spec] = {
    "博物馆": _a("博物馆", (0, 40), (60, 120), "museum"),
    "纪念馆": _a("纪念馆", (0, 20), (45, 90), "museum"),
    "名人故居": _a("故居", (0, 30), (30, 60), "museum_break"),
    "寺庙": _a("寺 禅寺 古寺", (10, 60), (40, 90), "temple", 20),
    "道观": _a("观 道观", (10, 40), (40, 80), "temple", 20),
    "教堂": _a("教堂", (0, 0), (20, 40), "temple"),
    "天主教堂": _a("天主堂", (0, 0), (20, 40), "temple"),
    "基督教堂": _a("基督教堂", (0, 0), (20, 40), "temple"),
    "清真寺": _a("清真寺", (0, 10), (20, 40), "temple"),
    "公园": _a("公园", (0, 0), (30, 90), "park"),
    "城市公园": _a("公园", (0, 0), (30, 90), "park"),
    "社区公园": _a("社区公园", (0, 0), (20, 45), "open"),
    "森林公园": _a("森林公园", (0, 60), (90, 180), "scenic", 30),
    "湿地公园": _a("湿地公园", (0, 40), (60, 150), "park", 25),
    "湿地": _a("湿地", (0, 40), (60, 150), "park", 25),
    "滨江公园": _a("滨江公园", (0, 0), (30, 90), "open"),
    "滨海公园": _a("滨海公园", (0, 0), (30, 90), "open"),
    "生态公园": _a("生态公园", (0, 20), (60, 120), "park", 20),
    "郊野公园": _a("郊野公园", (0, 20), (60, 150), "park", 30),
    "纪念公园": _a("纪念公园", (0, 0), (30, 60), "park"),
    "主题公园": _a("主题公园", (150, 350), (180, 360), "amusement", 20),
    "游乐园": _a("游乐园 欢乐城", (180, 450), (180, 420), "amusement", 20),
    "儿童乐园": _a("儿童乐园", (50, 150), (90, 180), "amusement"),
    "水上乐园": _a("水上乐园", (120, 260), (180, 300), "summer", 20),
    "动物园": _a("动物园 野生动物园", (20, 200), (120, 240), "zoo", 20),
    "植物园": _a("植物园", (10, 60), (90, 150), "zoo", 20),
    "热带植物园": _a("热带植物园", (30, 100), (90, 180), "zoo", 25),
    "海洋馆": _a("海洋馆 海洋世界", (120, 300), (120, 180), "day"),
    "广场": _a("广场", (0, 0), (20, 45), "open"),
    "特色街区": _a("老街 历史街区 步行街", (0, 0), (60, 120), "street"),
    "购物相关场所": _a("购物中心 商业街", (0, 0), (60, 150), "street"),
    "古镇": _a("古镇", (0, 120), (120, 240), "street", 40),
    "古镇古村": _a("古镇 古村", (0, 120), (120, 240), "street", 40),
    "古村落": _a("古村", (0, 80), (90, 180), "day", 40),
    "古建筑": _a("古建筑群 楼 阁", (10, 60), (45, 90), "day"),
    "文物古迹": _a("遗址 古城墙 石刻", (0, 80), (60, 120), "day", 20),
    "人文景观": _a("文化园 书院 牌坊", (0, 60), (45, 90), "day"),
    "特色景点": _a("文化村 奇石馆", (20, 80), (60, 120), "day"),
    "自然风光": _a("风景区 峡谷 瀑布", (40, 160), (120, 240), "scenic", 40),
    "名山丘陵": _a("山 岭", (30, 120), (150, 300), "scenic", 40),
    "名山大川": _a("山 峰", (60, 200), (180, 360), "scenic", 60),
    "湖泊河流": _a("湖 河湾", (0, 60), (60, 150), "park", 25),
    "3A景区": _a("景区", (20, 60), (60, 120), "scenic", 25),
    "4A景区": _a("旅游区 景区", (40, 120), (90, 180), "scenic", 30),
    "5A景区": _a("风景名胜区 旅游区", (80, 260), (180, 360), "scenic", 40),
    "海滨浴场": _a("海滨浴场", (0, 20), (90, 180), "beach", 20),
    "海滨沙滩": _a("沙滩", (0, 0), (60, 150), "open", 25),
    "海滩": _a("海滩", (0, 0), (60, 150), "open", 25),
    "温泉": _a("温泉 温泉度假村", (150, 320), (120, 240), "spa", 30),
    "漂流": _a("漂流", (120, 260), (120, 240), "summer", 50),
    "溶洞": _a("溶洞", (60, 150), (60, 120), "scenic", 50),
    "大峡谷": _a("大峡谷", (60, 180), (150, 300), "scenic", 60),
    "冰川瀑布": _a("瀑布", (60, 180), (120, 240), "scenic", 60),
    "森林草原": _a("草原 林场", (30, 120), (120, 240), "scenic", 60),
    "观景点": _a("观景台", (0, 60), (30, 60), "late"),
    "创意园区": _a("创意园 文创园", (0, 0), (60, 120), "street"),
    "红色景点": _a("革命旧址 红色教育基地", (0, 0), (60, 90), "museum"),
    "烈士陵园": _a("烈士陵园", (0, 0), (30, 60), "park"),
    "梯田": _a("梯田", (40, 100), (90, 180), "scenic", 60),
    "步道": _a("步道 绿道", (0, 0), (60, 150), "open", 20),
    "户外拓展": _a("户外拓展基地", (80, 200), (120, 240), "day", 30),
    "园林": _a("园", (20, 80), (60, 120), "day"),
    "冰雪大世界": _a("冰雪大世界", (200, 330), (150, 240), "winter_night", 20),
}
GENERIC_ATTRACTION = _a("景区", (0, 60), (60, 120), "day")

_BRANCHLESS = ("馆", "店", "厅", "楼", "街", "档", "廊", "城", "坊", "铺")

FOOD_PRICE: dict[str, tuple[int, int]] = {
    **dict.fromkeys(
        _w(
            "小吃快餐 特色小吃 面馆 米线 过桥米线 牛肉面 刀削面 锅盖面 沙茶面 烧饼 煎饼 豆花/豆腐脑 汤包 "
            "中式快餐 牛肉粉 螺蛳粉 麻辣烫 中式糕点 汤 米粉"
        ),
        (15, 40),
    ),
    **dict.fromkeys(_w("西式快餐 披萨 茶餐厅 美食街 串串香 大排档"), (30, 70)),
    **dict.fromkeys(_w("海鲜 日本料理 寿司 铁板烧 海鲜酒楼 海鲜火锅 私房菜 创意菜 意大利菜"), (120, 300)),
    **dict.fromkeys(_w("自助餐 综合酒楼 西餐厅(综合风味) 粤式茶点 涮羊肉 牛肉火锅"), (90, 200)),
}
DEFAULT_FOOD_PRICE = (50, 120)
FOOD_HOURS: dict[str, str] = {
    **dict.fromkeys(
        _w(
            "小吃快餐 特色小吃 面馆 米线 过桥米线 牛肉面 刀削面 锅盖面 沙茶面 烧饼 煎饼 豆花/豆腐脑 汤包 "
            "中式快餐 牛肉粉 米粉 中式糕点 汤 粤式茶点 茶餐厅"
        ),
        "breakfast",
    ),
    **dict.fromkeys(
        _w(
            "西式快餐 披萨 自助餐 火锅 重庆火锅 四川火锅 牛肉火锅 鱼火锅 海鲜火锅 "
            "云南火锅 汤锅 涮羊肉 麻辣烫 螺蛳粉 日本料理 寿司 韩国料理"
        ),
        "all_day",
    ),
    **dict.fromkeys(_w("烧烤 烤串 大排档 小龙虾 串串香 美食街 烤肉"), "night"),
}

HOTELS: dict[str, Spec] = {
    "旅馆": Spec(_w("旅馆 旅社"), (100, 180)),
    "客栈": Spec(_w("客栈"), (120, 260)),
    "快捷酒店": Spec(_w("快捷酒店"), (150, 250)),
    "经济型": Spec(_w("宾馆 连锁酒店"), (150, 300)),
    "民宿": Spec(_w("民宿 小院"), (200, 500)),
    "电竞酒店": Spec(_w("电竞酒店"), (200, 400)),
    "商务酒店": Spec(_w("商务酒店"), (250, 450)),
    "舒适型": Spec(_w("精选酒店 酒店"), (250, 450)),
    "公寓式酒店": Spec(_w("公寓酒店 服务公寓"), (250, 500)),
    "主题酒店": Spec(_w("主题酒店"), (250, 500)),
    "高档型": Spec(_w("大酒店 花园酒店"), (450, 900)),
    "度假酒店": Spec(_w("度假酒店"), (600, 1500)),
    "豪华型": Spec(_w("国际大酒店 丽晶酒店"), (1000, 2200)),
}
GENERIC_HOTEL = Spec(_w("酒店"), (250, 450))

_NAMED = """
艺术:创意园区 博物馆:博物馆 博物院:博物馆 纪念馆:纪念馆 故居:名人故居 乐园:游乐园 欢乐谷:游乐园
方特:游乐园 迪士尼:主题公园 环球度假区:主题公园 环球影城:主题公园 欢乐世界:游乐园
世界之窗:主题公园 动物园:动物园 植物园:植物园 海洋:海洋馆 寺:寺庙 庙:寺庙 宫:文物古迹 石窟:文物古迹
古城:文物古迹 陵:文物古迹 古镇:古镇 村:古村落 温泉:温泉 湿地:湿地公园
公园:公园 广场:广场 街:特色街区 路:特色街区 巷:特色街区 坊:特色街区
沙滩:海滨沙滩 海滩:海滨沙滩 湾:海滨沙滩 湖:湖泊河流 江:湖泊河流 山:名山丘陵
峰:名山丘陵 峡:大峡谷 瀑布:冰川瀑布 草原:森林草原 塔:人文景观 园:园林
风景:自然风光 景区:4A景区
"""
NAMED_RULES: tuple[tuple[str, str], ...] = tuple((p.split(":")[0], p.split(":")[1]) for p in _NAMED.split())


def attraction_spec(category: str) -> Spec:
    """Generation facts of an attraction category."""
    return ATTRACTIONS.get(category, GENERIC_ATTRACTION)


def hotel_spec(category: str) -> Spec:
    """Generation facts of a hotel category."""
    return HOTELS.get(category, GENERIC_HOTEL)


def food_spec(category: str) -> Spec:
    """Generation facts of a food category (suffix made from the category word)."""
    word = category.split("(", maxsplit=1)[0].rsplit("/", maxsplit=1)[-1]
    first = word if word.endswith(_BRANCHLESS) else f"{word}馆"
    suffixes = tuple(dict.fromkeys((first, word, f"{word}店", f"{word}坊")))
    visit = (45, 90) if "火锅" in category or category in ("自助餐", "综合酒楼") else (30, 60)
    price = FOOD_PRICE.get(category, DEFAULT_FOOD_PRICE)
    return Spec(suffixes, price, visit, FOOD_HOURS.get(category, "meals"), 7.0)


def named_category(name: str) -> str:
    """A plausible category for an attraction the tasks name, from words in the name."""
    return next((cat for word, cat in NAMED_RULES if word in name), "人文景观")
