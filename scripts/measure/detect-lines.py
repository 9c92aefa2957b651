"""Generated, seeded inputs for per-line charset detection (`urlkit decode -l -c auto`).

  detect-lines.py utf8 N FILE     N URL lines whose escapes decode to valid UTF-8 (about
                                  one line in ten pure ASCII), about 82 bytes each
  detect-lines.py legacy N FILE   N URL lines whose escapes decode to text in a legacy
                                  charset, the charsets mixed line by line; FILE.labels
                                  gets each line's charset (WHATWG name), one a line

Same N, same seed, same file: the words are fixed below and the choices come from
random.Random(seed) (SEED in the environment, default 23).
"""

import os
import random
import sys

# Words of each language, and the legacy charsets each is written in.
WORDS = {
    "ja": (["東京", "天気", "検索", "ラーメン", "ひらがな", "カタカナ", "日本語", "大阪", "新着情報",
            "お問い合わせ", "会社概要", "商品一覧", "写真", "地図", "価格"],
           ["shift_jis", "euc-jp"]),
    "zh-Hans": (["北京", "天气", "搜索", "新闻", "中国", "上海", "产品", "公司简介", "联系我们",
                 "下载", "图片", "视频", "价格", "手机"],
                ["gbk"]),
    "zh-Hant": (["臺北", "天氣", "搜尋", "新聞", "香港", "產品", "公司簡介", "聯絡我們", "下載",
                 "圖片", "價格", "電話"],
                ["big5"]),
    "ko": (["서울", "날씨", "검색", "뉴스", "한국어", "부산", "제품", "회사소개", "문의하기",
            "다운로드", "사진", "가격", "지도"],
           ["euc-kr"]),
    "ru": (["Москва", "погода", "поиск", "новости", "главная", "контакты", "товары", "цена",
            "скачать", "фото", "карта", "регистрация"],
           ["windows-1251", "koi8-r"]),
    "de": (["Größe", "Straße", "Übersicht", "Grüße", "Bücher", "Kühlschrank", "Preisübersicht",
            "Geschäftsführer", "Öffnungszeiten", "Fußball"],
           ["windows-1252"]),
    "fr": (["café", "été", "élève", "Très", "déjà", "français", "préférés", "résumé", "hôtel",
            "garçon"],
           ["windows-1252"]),
    "pl": (["źródło", "żółw", "zażółć", "gęślą", "jaźń", "Łódź", "świeże", "pięść", "książka"],
           ["windows-1250", "iso-8859-2"]),
    "el": (["Αθήνα", "καιρός", "αναζήτηση", "ειδήσεις", "προϊόντα", "επικοινωνία", "τιμή"],
           ["windows-1253"]),
    "he": (["ירושלים", "חיפוש", "חדשות", "מזג", "אוויר", "מוצרים", "צור", "קשר"],
           ["windows-1255"]),
    "ar": (["القاهرة", "الطقس", "بحث", "أخبار", "منتجات", "اتصل", "بنا", "الأسعار"],
           ["windows-1256"]),
    "th": (["กรุงเทพ", "สภาพอากาศ", "ค้นหา", "ข่าว", "สินค้า", "ติดต่อเรา", "ราคา"],
           ["cp874"]),
    "tr": (["İstanbul", "hava", "durumu", "arama", "haberler", "ürünler", "iletişim", "şehir",
            "öğrenci"],
           ["windows-1254"]),
}

ASCII_WORDS = ["search", "news", "index", "list", "page", "item", "user", "photo", "view",
               "category", "products", "about"]
HOSTS = ["www.example.com", "shop.example.org", "example.net", "img.example.com",
         "api.example.io"]
KEYS = ["q", "s", "query", "keyword", "name", "title", "k"]
# Safe characters left literal by the encoder (Python's quote with safe="").
UNRESERVED = set(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")


def escape(data):
    return "".join(chr(b) if b in UNRESERVED else "%{:02X}".format(b) for b in data)


def url(rng, value, target):
    """A URL about `target` bytes long with `value` (already escaped) as a query value and
    ASCII path segments."""
    host = rng.choice(HOSTS)
    key = rng.choice(KEYS)
    path = "/" + rng.choice(ASCII_WORDS)
    line = f"https://{host}{path}?{key}={value}"
    while len(line) + 8 < target:
        line += "&" + rng.choice(KEYS) + "=" + rng.choice(ASCII_WORDS)
    return line


def utf8_line(rng):
    if rng.random() < 0.1:
        return url(rng, "+".join(rng.choice(ASCII_WORDS) for _ in range(2)), 82)
    language = rng.choice(list(WORDS))
    words = WORDS[language][0]
    value = escape(" ".join(rng.choice(words) for _ in range(rng.randint(1, 2))).encode())
    return url(rng, value, 82)


def legacy_line(rng):
    language = rng.choice(list(WORDS))
    words, charsets = WORDS[language]
    charset = rng.choice(charsets)
    text = " ".join(rng.choice(words) for _ in range(rng.randint(1, 3)))
    return url(rng, escape(text.encode(charset)), 82), charset


# WHATWG names of the charsets above, as urlkit and chardetng answer them.
WHATWG = {"shift_jis": "Shift_JIS", "euc-jp": "EUC-JP", "gbk": "GBK", "big5": "Big5",
          "euc-kr": "EUC-KR", "cp874": "windows-874", "koi8-r": "KOI8-R", "iso-8859-2": "ISO-8859-2"}


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("utf8", "legacy"):
        sys.exit(__doc__)
    kind, count, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    rng = random.Random(int(os.environ.get("SEED", "23")))
    with open(path, "w", encoding="ascii", newline="\n") as out:
        if kind == "utf8":
            for _ in range(count):
                out.write(utf8_line(rng) + "\n")
            return
        with open(path + ".labels", "w", encoding="ascii", newline="\n") as labels:
            for _ in range(count):
                line, charset = legacy_line(rng)
                out.write(line + "\n")
                labels.write(WHATWG.get(charset, charset) + "\n")


if __name__ == "__main__":
    main()
