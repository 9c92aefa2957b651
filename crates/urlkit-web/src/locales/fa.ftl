# صفحهٔ ابزار وب urlkit به فارسی (راست به چپ). ورودی‌ها، خروجی‌ها، کدهای یافته‌ها و نام
# مجموعه‌نویسه‌ها و مجموعه‌های رمزگذاری ترجمه نمی‌شوند و چپ به راست می‌مانند. پیام‌هایی که با
# -html تمام می‌شوند می‌توانند <code> و <strong> داشته باشند.

## زبان
language-name = فارسی
language-switch = زبان

## صفحه
page-title = urlkit — رمزگذار و رمزگشای URL
meta-description = رمزگذاری و رمزگشایی درصدی متن در هر مجموعه‌نویسه، و تجزیهٔ URL.
tagline = رمزگذاری و رمزگشایی درصدی متن در هر مجموعه‌نویسه، و تجزیهٔ URL.
skip-to-input = رفتن به ورودی
sections = بخش‌ها
nav-codec = رمزگذاری و رمزگشایی
nav-files = فایل‌ها
nav-inspect = بررسی URL
nav-reference = مرجع
nav-api = API
footer-html = API ‏HTTP در <a href="/api/openapi.json">/api/openapi.json</a> توصیف شده است؛ مجوزهای کدی که urlkit در بر دارد در <a href="/licenses">/licenses</a> است.

## رمزگذاری و رمزگشایی
codec-title = رمزگذاری و رمزگشایی
direction = جهت
encode = رمزگذاری
decode = رمزگشایی
swap = جابه‌جایی
swap-title = خروجی را در ورودی بگذار و جهت را برعکس کن
direction-encode = رمزگذاری: متن ← رمزگذاری درصدی
direction-decode = رمزگشایی: رمزگذاری درصدی ← متن
direction-auto = جهت را انتخاب کنید، یا فقط بنویسید: ورودی رمزگذاری‌شدهٔ درصدی رمزگشایی و هر چیز دیگری رمزگذاری می‌شود.
direction-auto-decoded = ورودی به نظر رمزگذاری‌شدهٔ درصدی است، پس رمزگشایی شد.
direction-auto-encoded = ورودی به نظر رمزگذاری‌شدهٔ درصدی نیست، پس رمزگذاری شد.
encode-instead = به جای آن رمزگذاری کن
decode-instead = به جای آن رمزگشایی کن
kind-text = متن
kind-encoded = رمزگذاری درصدی
input = ورودی
output = خروجی
input-placeholder = متنی بنویسید یا بچسبانید، مثلاً %E5%BC%95%E3%81%8D یا a b&c
copy = رونوشت
download = بارگیری
copied = رونوشت شد
copy-select = انتخاب شد: برای رونوشت Ctrl+C را بزنید
output-shown = آغاز خروجی نشان داده شده است ({ $shown } از { $total })؛ رونوشت، بارگیری و جابه‌جایی همهٔ آن را برمی‌دارند.
input-part = ورودی بزرگ ({ $size }): این کادر نویسه‌های { $from } تا { $to } از { $length } را دارد و بقیه نگه داشته و به کار برده می‌شود. ‏Ctrl+A همهٔ آن را برمی‌گزیند.
input-part-start = آغاز
input-part-earlier = قبلی
input-part-later = بعدی
input-part-end = پایان
live-mode = حالت زنده
live-hint-on = در مرورگر شما اجرا می‌شود: چیزی فرستاده نمی‌شود
live-hint-off = با زدن دکمه، کارگزار پاسخ می‌دهد
shortcuts = صفحه‌کلید
shortcut-encode = رمزگذاری
shortcut-decode = رمزگشایی
shortcut-swap = جابه‌جایی
shortcut-copy = رونوشت خروجی

## گزینه‌ها
options = گزینه‌ها
options-both = هر دو جهت
options-encoding = رمزگذاری
options-decoding = رمزگشایی
charset = مجموعه‌نویسه
charset-auto = auto — تشخیص (رمزگشایی)
newline = جداکنندهٔ سطر
strict = حالت سخت‌گیر
strict-hint = ورودی نادرست را به جای ترمیم رد کن
set = مجموعهٔ رمزگذاری
safe = این‌ها را هم دست‌نخورده نگه دار
unsafe = این‌ها را هم رمزگذاری کن
space-plus-html = فاصله به صورت <code>+</code>
lowercase = ارقام شانزده‌شانزدهی با حروف کوچک
encode-per-line = هر سطر را جداگانه رمزگذاری کن
plus-space-html = <code>+</code> به معنای فاصله
plus-space-hint = داده‌های فرم
keep-whitespace = فاصله‌های رمزگذاری‌نشده را نگه دار
until-stable = رمزگشایی تا پایدار شدن
until-stable-hint-html = همهٔ لایه‌ها را بردار: <code>%2520</code> ← فاصله
decode-per-line = هر سطر را جداگانه رمزگشایی کن

## سطر وضعیت
status-charset = مجموعه‌نویسه: { $charset }
status-detected = { $charset } تشخیص داده شد (اطمینان { $confidence }٪، { $reason })
status-layers = { $count ->
    [one] { $count } لایه برداشته شد
   *[other] { $count } لایه برداشته شد
}
status-other-readings = خوانش‌های دیگر:
status-auto-encode = تشخیص فقط برای رمزگشایی است؛ با UTF-8 رمزگذاری شد
status-not-encoded = رمزگذاری نشد
status-not-decoded = رمزگشایی نشد
status-working = در حال کار… { $percent }٪
status-working-whole = در حال کار…

## یافته‌ها
findings-title = یافته‌ها
findings-none = یافته‌ای نیست.
findings-total = { $count ->
    [one] { $count } یافته
   *[other] { $count } یافته
}
findings-show-all = نمایش همهٔ { $count } مورد
findings-first = { $shown } مورد نخست این‌جا آمده است.
findings-not-listed = { $count } مورد دیگر شمرده شد ولی فهرست نشد.
at-byte = بایت { $offset }
at-line = سطر { $line }، ستون { $column }
show-in-input = این جا را در ورودی نشان بده
per-line-offer = به نظر می‌رسد چند URL به هم چسبیده‌اند: شکستِ سطرهای میانشان حذف شده است.
per-line-action = هر سطر را جداگانه رمزگشایی کن
library-language = en

## معنای کدهای یافته‌ها (خود کدها تغییر نمی‌کنند)
code-malformed-escape = نویسهٔ % بدون دو رقم شانزده‌شانزدهی پس از آن
code-invalid-sequence = بایت‌هایی که در این مجموعه‌نویسه معتبر نیستند
code-unencodable-character = نویسه‌ای که این مجموعه‌نویسه نمی‌تواند نشان دهد
code-invalid-input = متنی که UTF-8 معتبر نیست
code-control-character = گریزی که به نویسهٔ کنترلی رمزگشایی می‌شود
code-bidi-character = گریزی که به نویسهٔ قالب‌بندی جهت متن رمزگشایی می‌شود و می‌تواند متن را پنهان کند
code-multiple-layers = متن بیش از یک بار رمزگذاری درصدی شده به نظر می‌رسد (رمزگشایی تا پایدار شدن همهٔ لایه‌ها را برمی‌دارد)
code-url-too-long = URL بلندتر از آنچه بسیاری از کارگزارها می‌پذیرند
code-password-in-url = گذرواژه در URL
code-charset-detected = مجموعه‌نویسه‌ای که تشخیص خودکار برگزید
code-whitespace-removed = فاصله‌های رمزگذاری‌نشده حذف شدند
code-explicit-default-port = URL درگاه پیش‌فرض طرح خود را نام می‌برد
code-whitespace-stripped = تجزیه‌گر URL فاصله یا نویسه‌های کنترلی را انداخت
code-backslash-as-slash = تجزیه‌گر URL خط مورب وارونه را خط مورب خواند
code-non-canonical-ipv4 = نشانی IPv4 با نگارشی نامعمول
code-mixed-script = نام میزبانی که خط‌ها را درهم می‌آمیزد
code-confusable-host = نام میزبانی که از نام دیگری تقلید می‌کند
code-validation-error = چیزی که تجزیه‌گر URL ترمیم کرد
code-literal-non-ascii = بایت غیر ASCII رمزگذاری‌نشده که در مجموعه‌نویسه خوانده شد
code-entries-joined = شکست سطری که میان دو مورد حذف شد

## خطاها: چه شد و چه باید کرد
error-too-large-text = ورودی از حدی که کارگزار برای متن می‌پذیرد ({ $limit }) بزرگ‌تر است. برای ورودی‌های بزرگ از بخش فایل‌ها در پایین استفاده کنید، یا حالت زنده را روشن کنید: در همین مرورگر کار می‌کند و چیزی نمی‌فرستد.
error-too-large-file = فایل از حد بارگذاری ({ $limit }) بزرگ‌تر است. حالت زنده را روشن کنید تا در همین مرورگر پردازش شود: چیزی بارگذاری نمی‌شود و حدی در کار نیست.
error-rejected = حالت سخت‌گیر ورودی را در بایت { $offset } رد کرد: { $problem }.
error-rejected-line = حالت سخت‌گیر ورودی را در سطر { $line }، ستون { $column } (بایت { $offset }) رد کرد: { $problem }.
error-rejected-next = آن را همان‌جا درست کنید، یا حالت سخت‌گیر را خاموش کنید تا چنین ورودی‌ای ترمیم شود.
error-invalid-request = گزینهٔ «{ $field }» فهمیده نشد: { $message }
error-network = دسترسی به کارگزار ممکن نشد ({ $message }). حالت زنده بدون آن هم کار می‌کند.
error-busy = کارگزار سرش شلوغ است؛ چند ثانیهٔ دیگر دوباره امتحان کنید.
error-store-full = کارگزار اکنون جایی برای نتیجه‌ها ندارد؛ بعداً امتحان کنید، یا از حالت زنده استفاده کنید.
error-no-file = نخست فایلی برگزینید.
error-live-failed = حالت زنده راه نیفتاد ({ $message })؛ برای استفاده از کارگزار خاموشش کنید.

## فایل‌ها
files-title = فایل‌ها
files-intro-html = فایلی را رمزگذاری یا رمزگشایی کنید. فایل بارگذاری‌شده بی‌درنگ پس از پردازش پاک می‌شود؛ نتیجه را <strong>یک بار</strong> می‌توان بارگیری کرد و با نخستین بارگیری، یا اگر کسی آن را نگیرد پس از مدتی، پاک می‌شود. بدون مجموعه‌نویسه، بایت‌ها همان‌گونه که هستند رمزگذاری یا رمزگشایی می‌شوند.
files-live-note = با حالت زنده، فایل در همین مرورگر، مگابایت به مگابایت، پردازش می‌شود و هرگز بارگذاری نمی‌شود.
file-operation = عمل
file-charset-bytes = بایت‌ها همان‌گونه که هستند (بدون مجموعه‌نویسه)
file-plus-space-html = <code>+</code> به معنای فاصله (رمزگشایی)
file-per-line = هر سطر جداگانه
file = فایل
upload = بارگذاری و پردازش
process-in-browser = پردازش در مرورگر
file-ready = نتیجه آماده است ({ $size } بایت).
file-download = بارگیری نتیجه
file-once = تا { $expires } یک بار می‌توان آن را بارگیری کرد.
file-downloaded = بارگیری شد ({ $size } بایت): نتیجه اکنون از کارگزار پاک شده است.
file-ready-local = نتیجه آماده است ({ $size } بایت، { $seconds } ثانیه در این مرورگر؛ چیزی بارگذاری نشد).
file-processing = در حال پردازش…
file-processing-local = در حال پردازش در این مرورگر… { $percent }٪

## بررسی URL
inspect-title = بررسی URL
url = URL
base = URL پایه (اختیاری)
inspect = بررسی
resolved = حل‌شده (RFC 3986 §5.2)
view-whatwg = استاندارد URL ‏WHATWG (مرورگرها)
view-rfc3986 = نحو عمومی RFC 3986
drawn-url = URL، بخش به بخش
part-scheme = طرح
part-user = کاربر
part-password = گذرواژه
part-host = میزبان
part-port = درگاه
part-path = مسیر
part-query = پرس‌وجو
part-fragment = پاره
field-href = URL
field-origin = خاستگاه
host-unicode = به یونیکد
host-type = نوع
port-default = درگاه پیش‌فرض طرح: { $port }
none = هیچ
query-name = نام
query-value = مقدار
query-not-listed = …و { $count } جفت دیگر
fragment-decoded = رمزگشایی‌شده
warnings = هشدارها
warnings-none = هشداری نیست.
warnings-not-listed = …و { $count } مورد دیگر
parse-failed = بایت { $position }: { $message }
edit = ویرایش URL
edit-component = بخش
edit-value = مقدار
edit-set = تنظیم
edit-clear = پاک کردن
edit-append = افزودن پارامتر
edit-append-placeholder = نام=مقدار
edit-trim = حذف پارامترها
edit-trim-placeholder = نام یا utm_*
edit-sort = مرتب کردن پرس‌وجو
edit-apply = اعمال
edit-unavailable = این کارگزار هنوز URL را ویرایش نمی‌کند: URL همان‌گونه که هست نشان داده شده است.
edit-refused = تغییر پذیرفته نشد ({ $field }): { $message }
remove-pair = حذف

## مرجع
reference-title = مرجع
reference-percent = رمزگذاری درصدی
reference-percent-text-html = URL فقط می‌تواند مجموعهٔ کوچکی از نویسه‌های ASCII را در خود داشته باشد. هر بایت دیگری به صورت <code>%</code> و پس از آن دو رقم شانزده‌شانزدهی نوشته می‌شود: فاصله <code>%20</code> است. متن نخست در یک مجموعه‌نویسه به بایت تبدیل می‌شود (امروز UTF-8؛ وبگاه‌های قدیمی‌تر شاید دیگری بخواهند)، سپس هر بایتی که بیرون از مجموعهٔ مجاز است گریزانده می‌شود؛ پس <code>é</code> در UTF-8 می‌شود <code>%C3%A9</code> و در windows-1252 می‌شود <code>%E9</code> (RFC 3986 §2.1).
reference-form-text-html = <code>application/x-www-form-urlencoded</code> گونه‌ای است که فرم‌های HTML می‌فرستند: نام‌ها و مقدارها به صورت جفت‌های <code>name=value</code> با <code>&amp;</code> از هم جدا می‌شوند، فاصله <code>+</code> می‌شود و فقط <code>A–Z a–z 0–9 * - . _</code> دست‌نخورده می‌مانند. از این رو رمزگشایی دادهٔ فرم <code>+</code> را فاصله می‌کند؛ رمزگشایی مسیر نه.
reference-unreserved = نویسه‌های رزرونشده (RFC 3986 §2.3)
reference-unreserved-text = هرگز نیازی به گریزاندن ندارند و گریزانده یا نه، همان معنا را دارند:
reference-reserved = نویسه‌های رزروشده (RFC 3986 §2.2)
reference-reserved-encoded = نویسه‌های رزروشده پس از رمزگذاری درصدی
reference-reserved-encoded-text = وقتی داده‌اند و نه جداکننده، آن‌ها را بگریزانید:
reference-common = نویسه‌های رایج پس از رمزگذاری درصدی
reference-character = نویسه
reference-encoded = رمزگذاری‌شده
reference-encoded-utf8 = رمزگذاری‌شده (UTF-8)
reference-role = نقش
reference-note = یادداشت
ref-space = فاصله
ref-line-feed = خط جدید
ref-carriage-return = بازگشت نورد
ref-tab = جدول‌بندی
ref-after-scheme = gen-delim: پس از طرح، پیش از درگاه
ref-path-segments = gen-delim: بخش‌های مسیر
ref-starts-query = gen-delim: آغاز پرس‌وجو
ref-starts-fragment = gen-delim: آغاز پاره
ref-ipv6 = gen-delim: دور نشانی‌های IPv6
ref-ends-userinfo = gen-delim: پایان اطلاعات کاربر
ref-sub-delim = sub-delim
ref-separates-parameters = sub-delim: جداکنندهٔ پارامترهای پرس‌وجو
ref-space-in-form = sub-delim: فاصله در دادهٔ فرم
ref-parameter-separator = sub-delim: جداکنندهٔ پارامتر در برخی طرح‌ها
ref-name-value = sub-delim: جداکنندهٔ نام و مقدار
ref-plus-in-form = + در دادهٔ فرم (application/x-www-form-urlencoded)
ref-quotation-mark = نشانهٔ نقل قول
ref-escape-character = خود نویسهٔ گریز
ref-less-than = نشانهٔ کوچک‌تر از
ref-greater-than = نشانهٔ بزرگ‌تر از
ref-backslash = خط مورب وارونه
ref-caret = علامت کارت
ref-grave = تکیهٔ بم
ref-left-brace = آکولاد چپ
ref-vertical-bar = خط عمودی
ref-right-brace = آکولاد راست
ref-utf8-two = UTF-8: دو بایت
ref-utf8-three = UTF-8: سه بایت
ref-utf8-four = UTF-8: چهار بایت

## Persistent URLs (urlkit purl serve): the resolver's page under /-/
purl-title = نشانی‌های پایدار
purl-tagline = نام‌هایی که می‌مانند: هر رکورد می‌گوید منبع اکنون کجاست.
purl-nav-records = رکوردها
purl-nav-new = رکورد تازه
purl-log-in = ورود
purl-log-out = خروج
purl-logged-in-as = واردشده با نام { $user }
purl-user = نام کاربری
purl-password = گذرواژه
purl-login-failed = این نام کاربری و گذرواژه با هم جور نیستند.
purl-need-login = برای تغییر رکوردها وارد شوید.
purl-csrf = این فرم منقضی شده است؛ صفحه را دوباره بار کنید و باز امتحان کنید.
purl-unavailable = پایگاه داده اکنون نمی‌تواند این را بپذیرد؛ هدایت‌ها همچنان پاسخ داده می‌شوند. کمی بعد دوباره امتحان کنید.
purl-search = جست‌وجو
purl-search-name = نام با این آغاز می‌شود
purl-search-target = مقصد شامل این است
purl-no-results = هیچ رکوردی جور نیست.
purl-name = نام
purl-answers = پاسخ
purl-domain = دامنه
purl-version = نسخه
purl-last-change = آخرین تغییر
purl-resolutions = شمار پاسخ‌ها
purl-last-check = آخرین بررسی مقصدها
purl-archived = مقصد دیگر پاسخ نمی‌دهد: بازدیدکنندگان از { $since } به نسخهٔ بایگانی‌شده فرستاده می‌شوند:
purl-nav-checks = مقصدها
purl-checks-title = مقصدهای خراب و جابه‌جاشده
purl-checks-none = هیچ مقصد خراب یا جابه‌جاشده‌ای نیست: همهٔ مقصدها در آخرین بررسی پاسخ دادند، یا هنوز بررسی نشده‌اند.
purl-check-outcome = آخرین بررسی
purl-check-moved-to = جابه‌جا شده به
purl-accept = پذیرفتن مقصد تازه
purl-no-suggestion = آخرین بررسی این مقصد، مقصد تازه‌ای پیشنهاد نمی‌کند.
purl-type = گونه
purl-type-redirect = هدایت
purl-type-partial = بخشی: باقی مسیر افزوده می‌شود
purl-type-chain = زنجیره به نامی دیگر از همین سرویس
purl-type-negotiate = بر پایهٔ نوع رسانه و زبان
purl-type-not-found = یافت نشد (404)
purl-type-gone = حذف شده (410)
purl-status = کد وضعیت
purl-target = نشانی مقصد
purl-chain-to = زنجیره به
purl-message = پیام
purl-offers = مقصدها بر پایهٔ نوع رسانه، هر خط یکی: media/type [زبان] URL
purl-fallback = نشانی جایگزین، وقتی هیچ نوع رسانه‌ای جور نیست
purl-max-age = کلاینت‌ها می‌توانند پاسخ را نگه دارند (ثانیه؛ خالی: { $default })
purl-reason = دلیل تغییر
purl-preview = پیش‌نمایش
purl-preview-path = مسیر درخواست برای آزمودن
purl-preview-accept = سرآیند Accept برای آزمودن
purl-preview-result = درخواستی برای { $path } این را می‌گیرد:
purl-save = ذخیره
purl-saved = با نسخهٔ { $version } ذخیره شد.
purl-stale = کس دیگری در این میان این رکورد را تغییر داد (اکنون نسخهٔ { $version }، از { $user }). ویرایش شما در پایین مانده است؛ برای جایگزینی تغییر او دوباره ذخیره کنید.
purl-forbidden = شما نمی‌توانید این نام را تغییر دهید: از آنِ دامنهٔ { $domain } است.
purl-forbidden-nodomain = این نام در هیچ دامنه‌ای نیست؛ تنها مدیر می‌تواند آن را تغییر دهد.
purl-invalid = { $field }: { $message }
purl-edit = ویرایش
purl-delete = حذف
purl-deleted = حذف شده: این نام پاسخ 410 می‌دهد و تاریخچه‌اش می‌ماند.
purl-history = تاریخچه
purl-event = نسخهٔ { $version }: { $kind } از { $user }
purl-kind-create = ساخته شد
purl-kind-update = تغییر کرد
purl-kind-delete = حذف شد
purl-kind-restore = بازگردانده شد
purl-restore = بازگرداندن نسخهٔ { $version }
