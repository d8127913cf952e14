"""Generated POI names that never contain another preference word of their city by accident.

A name is clean when it is new in the city and every vocabulary word it contains is part of
the POI's own category (a "牛肉火锅" restaurant may say 火锅, a 森林公园 may say 公园).
"""

from __future__ import annotations

import random
from collections.abc import Sequence


def _words(text: str) -> tuple[str, ...]:
    return tuple(text.split())


THEMES = _words(
    """
    云山 翠湖 清风 青石 白鹭 金沙 玉泉 凤鸣 龙潭 松涛 桃源 梅岭 柳岸 荷塘 紫藤 银杏
    星河 霞光 锦绣 明月 碧波 长乐 永安 福寿 文昌 太平 凌云 栖霞 望江 听涛 鹤鸣 兰亭
    竹溪 枫林 樱花 海棠 芙蓉 牡丹 丁香 月牙 卧龙 飞虹 双桥 三清 九曲 百花 千岛 万松
    石门 铁山 铜鼓 金鸡 宝塔 灵泉 天池 云台 观澜 望海 清溪 南屏 北岭 东篱 西园 中和
    春晖 夏荷 秋实 冬青 瑞祥 嘉禾 丰乐 安澜 泰和 永宁 华阳 朝阳 晨曦 暮雪 烟雨 寒山
    幽谷 翠微 碧云 青莲 红枫 黄鹤 紫金
    """
)
BRANDS = _words(
    """
    张记 李记 王家 陈记 刘家 老街坊 阿婆 阿妈 福源 聚贤 德顺 同庆 拾味 一品 鼎盛 满福
    宏运 渔家 山野 乡里 半山 隆兴 万福 好客 食光 知味 老灶 小巷 巷口 街角 大碗 小碗
    老城 新味 味道 家宴 鲜到 胡同 老友 三友 四季 五味 六合 七星 八方 九鼎 十里 百味
    千禧 一家 品味 寻味 味坊 饭点 食堂记 开心 欢喜 金牌 银座 红灯笼 绿竹 青瓦 白墙
    """
)
HOTEL_BRANDS = _words(
    """
    悦居 云栖 逸庭 安澜 颐景 雅舍 君悦轩 锦庭 嘉苑 澜庭 栖湖 和颐 憩园 静庐 瑞庭 星程
    朗逸 怡景 泊隐 山舍 溪畔 漫居 如归 望月 听风 枕水 归园 拾光 初见 兰庭 竹里 松间
    海悦 湖畔 江景 城央 北辰 南苑 东方 西溪
    """
)
AREAS = _words(
    """
    东门 西街 南关 北站 中心 新城 老城 滨江 高新 开发区 火车站 步行街 大学城 万达 万象
    """
)


class Namer:
    """Makes clean, unique names for one city."""

    def __init__(self, short: str, words: set[str], taken: set[str]) -> None:
        self.short = short
        self.words = sorted(words)
        self.taken = taken

    def clean(self, name: str, category: str) -> bool:
        """New in the city, and no vocabulary word beyond the category's own."""
        return name not in self.taken and all(w not in name or w in category for w in self.words)

    def _take(self, candidates: Sequence[str], category: str) -> str | None:
        for name in candidates:
            if self.clean(name, category):
                self.taken.add(name)
                return name
        return None

    def attraction(self, suffixes: Sequence[str], category: str, r: random.Random) -> str:
        """A scenic-style name: [city] + theme + suffix."""
        firsts = [f"{p}{t}{s}" for t in r.sample(THEMES, 12) for p in ("", self.short) for s in suffixes]
        return self._take(firsts, category) or self._fallback(category, suffixes, r)

    def restaurant(self, suffixes: Sequence[str], category: str, r: random.Random) -> str:
        """A restaurant-style name: brand + suffix, with a branch if needed."""
        brands = r.sample(BRANDS, 12)
        firsts = [f"{b}{s}" for b in brands for s in suffixes]
        firsts += [f"{b}{s}({a}店)" for b in brands for s in suffixes for a in r.sample(AREAS, 3)]
        return self._take(firsts, category) or self._fallback(category, suffixes, r)

    def hotel(self, suffixes: Sequence[str], category: str, r: random.Random) -> str:
        """A hotel-style name: brand + [city] + suffix."""
        brands = r.sample(HOTEL_BRANDS, 12)
        firsts = [f"{b}{p}{s}" for b in brands for p in ("", self.short) for s in suffixes]
        return self._take(firsts, category) or self._fallback(category, suffixes, r)

    def _fallback(self, category: str, suffixes: Sequence[str], r: random.Random) -> str:
        """A theme with a number before each suffix in turn."""
        for n in range(1, 1000):
            for suffix in suffixes:
                name = f"{r.choice(THEMES)}{n}号{suffix}"
                if self.clean(name, category):
                    self.taken.add(name)
                    return name
        raise RuntimeError(f"no clean name for {category!r}")
