# urlkit के वेब टूल का पेज, हिन्दी में। इनपुट, आउटपुट, फ़ाइंडिंग कोड, कैरेक्टर सेट और एन्कोड सेट
# के नाम अनुवादित नहीं होते। -html पर ख़त्म होने वाले संदेशों में <code> और <strong> हो सकते हैं।

## भाषा
language-name = हिन्दी
language-switch = भाषा

## पेज
page-title = urlkit — URL एन्कोडर और डिकोडर
meta-description = किसी भी कैरेक्टर सेट में टेक्स्ट को परसेंट-एन्कोड और डिकोड करें, और URL के हिस्से देखें।
tagline = किसी भी कैरेक्टर सेट में टेक्स्ट को परसेंट-एन्कोड और डिकोड करें, और URL के हिस्से देखें।
skip-to-input = इनपुट पर जाएँ
sections = अनुभाग
nav-codec = एन्कोड और डिकोड
nav-files = फ़ाइलें
nav-inspect = URL जाँचें
nav-reference = संदर्भ
nav-api = API
footer-html = HTTP API का विवरण <a href="/api/openapi.json">/api/openapi.json</a> पर है; urlkit में शामिल कोड के लाइसेंस <a href="/licenses">/licenses</a> पर हैं।

## एन्कोड और डिकोड
codec-title = एन्कोड और डिकोड
direction = दिशा
encode = एन्कोड
decode = डिकोड
swap = अदला-बदली
swap-title = आउटपुट को इनपुट में डालें और दिशा उलट दें
direction-encode = एन्कोडिंग: टेक्स्ट → परसेंट-एन्कोडेड
direction-decode = डिकोडिंग: परसेंट-एन्कोडेड → टेक्स्ट
direction-auto = दिशा चुनें, या बस टाइप करें: परसेंट-एन्कोडेड इनपुट डिकोड होगा, बाक़ी सब एन्कोड।
direction-auto-decoded = इनपुट परसेंट-एन्कोडेड लगता है, इसलिए इसे डिकोड किया गया।
direction-auto-encoded = इनपुट परसेंट-एन्कोडेड नहीं लगता, इसलिए इसे एन्कोड किया गया।
encode-instead = इसके बजाय एन्कोड करें
decode-instead = इसके बजाय डिकोड करें
kind-text = टेक्स्ट
kind-encoded = परसेंट-एन्कोडेड
input = इनपुट
output = आउटपुट
input-placeholder = टेक्स्ट टाइप या पेस्ट करें, जैसे %E5%BC%95%E3%81%8D या a b&c
copy = कॉपी करें
download = डाउनलोड करें
copied = कॉपी हो गया
copy-select = चुन लिया गया: कॉपी करने के लिए Ctrl+C दबाएँ
output-shown = आउटपुट का शुरुआती हिस्सा दिखाया गया है ({ $total } में से { $shown }); कॉपी, डाउनलोड और अदला-बदली पूरा आउटपुट लेते हैं।
input-part = बड़ा इनपुट ({ $size }): बॉक्स में { $length } में से { $from }–{ $to } वर्ण हैं; बाक़ी सुरक्षित है और उसका भी उपयोग होता है। Ctrl+A पूरा इनपुट चुनता है।
input-part-start = शुरुआत
input-part-earlier = पिछला
input-part-later = अगला
input-part-end = अंत
live-mode = लाइव मोड
live-hint-on = आपके ब्राउज़र में चलता है: कुछ भी भेजा नहीं जाता
live-hint-off = बटन दबाने पर सर्वर जवाब देता है
shortcuts = कीबोर्ड
shortcut-encode = एन्कोड
shortcut-decode = डिकोड
shortcut-swap = अदला-बदली
shortcut-copy = आउटपुट कॉपी करें

## विकल्प
options = विकल्प
options-both = दोनों दिशाएँ
options-encoding = एन्कोडिंग
options-decoding = डिकोडिंग
charset = कैरेक्टर सेट
charset-auto = auto — पहचानें (डिकोडिंग)
newline = पंक्ति विभाजक
strict = सख़्त मोड
strict-hint = ग़लत इनपुट को ठीक करने के बजाय अस्वीकार करें
set = एन्कोड सेट
safe = इन्हें भी वैसे ही रखें
unsafe = इन्हें भी एस्केप करें
space-plus-html = स्पेस को <code>+</code> लिखें
lowercase = हेक्स छोटे अक्षरों में
encode-per-line = हर पंक्ति अलग से एन्कोड करें
plus-space-html = <code>+</code> को स्पेस पढ़ें
plus-space-hint = फ़ॉर्म डेटा
keep-whitespace = बिना एन्कोड किया व्हाइटस्पेस रखें
until-stable = स्थिर होने तक डिकोड करें
until-stable-hint-html = हर परत उतारें: <code>%2520</code> → स्पेस
decode-per-line = हर पंक्ति अलग से डिकोड करें

## स्थिति
status-charset = कैरेक्टर सेट: { $charset }
status-detected = { $charset } पहचाना गया (विश्वास { $confidence }%, { $reason })
status-layers = { $count ->
    [one] { $count } परत उतारी गई
   *[other] { $count } परतें उतारी गईं
}
status-other-readings = अन्य पाठ:
status-auto-encode = पहचान केवल डिकोडिंग पर लागू होती है; UTF-8 में एन्कोड किया गया
status-not-encoded = एन्कोड नहीं हुआ
status-not-decoded = डिकोड नहीं हुआ
status-working = काम जारी है… { $percent }%
status-working-whole = काम जारी है…

## फ़ाइंडिंग
findings-title = फ़ाइंडिंग
findings-none = कोई फ़ाइंडिंग नहीं।
findings-total = { $count ->
    [one] { $count } फ़ाइंडिंग
   *[other] { $count } फ़ाइंडिंग
}
findings-show-all = सभी { $count } दिखाएँ
findings-first = यहाँ पहली { $shown } दिखाई गई हैं।
findings-not-listed = { $count ->
    [one] { $count } और गिनी गई पर सूची में नहीं है।
   *[other] { $count } और गिनी गईं पर सूची में नहीं हैं।
}
at-byte = बाइट { $offset }
at-line = पंक्ति { $line }, कॉलम { $column }
show-in-input = यह जगह इनपुट में दिखाएँ
per-line-offer = यह कई URL जुड़े हुए लगते हैं: उनके बीच की लाइन ब्रेक हटा दी गई थीं।
per-line-action = हर पंक्ति अलग से डिकोड करें
library-language = en

## फ़ाइंडिंग कोड का अर्थ (कोड वैसे ही रहते हैं)
code-malformed-escape = ऐसा % जिसके बाद दो हेक्स अंक नहीं हैं
code-invalid-sequence = ऐसे बाइट जो कैरेक्टर सेट में मान्य नहीं हैं
code-unencodable-character = ऐसा अक्षर जिसे कैरेक्टर सेट व्यक्त नहीं कर सकता
code-invalid-input = ऐसा टेक्स्ट जो मान्य UTF-8 नहीं है
code-control-character = ऐसा एस्केप जो कंट्रोल कैरेक्टर बनता है
code-bidi-character = ऐसा एस्केप जो दिशा बदलने वाला अक्षर बनता है, जो टेक्स्ट को छिपा सकता है
code-multiple-layers = टेक्स्ट एक से ज़्यादा बार परसेंट-एन्कोड लगता है (स्थिर होने तक डिकोड करें, हर परत उतारता है)
code-url-too-long = ऐसा URL जो कई सर्वर की सीमा से लंबा है
code-password-in-url = URL में पासवर्ड
code-charset-detected = स्वतः पहचान से चुना गया कैरेक्टर सेट
code-whitespace-removed = बिना एन्कोड किया व्हाइटस्पेस हटाया गया
code-explicit-default-port = URL में स्कीम का डिफ़ॉल्ट पोर्ट लिखा है
code-whitespace-stripped = URL पार्सर ने व्हाइटस्पेस या कंट्रोल कैरेक्टर हटाए
code-backslash-as-slash = URL पार्सर ने बैकस्लैश को स्लैश पढ़ा
code-non-canonical-ipv4 = असामान्य रूप में लिखा IPv4 पता
code-mixed-script = ऐसा होस्ट नाम जिसमें कई लिपियाँ मिली हैं
code-confusable-host = ऐसा होस्ट नाम जो किसी दूसरे की नक़ल करता है
code-validation-error = कुछ ऐसा जिसे URL पार्सर ने ठीक किया
code-literal-non-ascii = बिना एन्कोड किया ग़ैर-ASCII बाइट, कैरेक्टर सेट में पढ़ा गया
code-entries-joined = दो प्रविष्टियों के बीच की लाइन ब्रेक हटाई गई

## त्रुटियाँ: क्या हुआ और आगे क्या करें
error-too-large-text = इनपुट सर्वर की टेक्स्ट सीमा ({ $limit }) से बड़ा है। बड़े इनपुट के लिए नीचे फ़ाइलें अनुभाग इस्तेमाल करें, या लाइव मोड चालू करें: यह इसी ब्राउज़र में चलता है और कुछ नहीं भेजता।
error-too-large-file = फ़ाइल अपलोड सीमा ({ $limit }) से बड़ी है। इसे इसी ब्राउज़र में प्रोसेस करने के लिए लाइव मोड चालू करें: कुछ भी अपलोड नहीं होता और कोई सीमा नहीं है।
error-rejected = सख़्त मोड ने बाइट { $offset } पर इनपुट अस्वीकार किया: { $problem }।
error-rejected-line = सख़्त मोड ने पंक्ति { $line }, कॉलम { $column } (बाइट { $offset }) पर इनपुट अस्वीकार किया: { $problem }।
error-rejected-next = उसे वहाँ ठीक करें, या सख़्त मोड बंद करें ताकि ऐसा इनपुट अपने-आप ठीक हो जाए।
error-invalid-request = विकल्प “{ $field }” समझ में नहीं आया: { $message }
error-network = सर्वर तक नहीं पहुँच सके ({ $message })। लाइव मोड इसके बिना भी काम करता है।
error-busy = सर्वर व्यस्त है; कुछ सेकंड बाद फिर कोशिश करें।
error-store-full = अभी सर्वर पर नतीजों के लिए जगह नहीं है; बाद में कोशिश करें, या लाइव मोड इस्तेमाल करें।
error-no-file = पहले एक फ़ाइल चुनें।
error-live-failed = लाइव मोड शुरू नहीं हो सका ({ $message }); सर्वर इस्तेमाल करने के लिए इसे बंद करें।

## फ़ाइलें
files-title = फ़ाइलें
files-intro-html = किसी फ़ाइल को एन्कोड या डिकोड करें। अपलोड प्रोसेस होते ही मिटा दिया जाता है; नतीजा <strong>एक बार</strong> डाउनलोड हो सकता है और पहले डाउनलोड पर, या कोई न ले तो कुछ समय बाद, मिटा दिया जाता है। कैरेक्टर सेट के बिना बाइट जैसे हैं वैसे ही एन्कोड या डिकोड होते हैं।
files-live-note = लाइव मोड चालू होने पर फ़ाइल इसी ब्राउज़र में, एक-एक मेगाबाइट करके, प्रोसेस होती है और कभी अपलोड नहीं होती।
file-operation = कार्य
file-charset-bytes = बाइट जैसे हैं वैसे (कोई कैरेक्टर सेट नहीं)
file-plus-space-html = <code>+</code> को स्पेस पढ़ें (डिकोडिंग)
file-per-line = हर पंक्ति अलग से
file = फ़ाइल
upload = अपलोड और प्रोसेस करें
process-in-browser = ब्राउज़र में प्रोसेस करें
file-ready = नतीजा तैयार है ({ $size } बाइट)।
file-download = नतीजा डाउनलोड करें
file-once = इसे { $expires } तक एक बार डाउनलोड किया जा सकता है।
file-downloaded = डाउनलोड हुआ ({ $size } बाइट): नतीजा अब सर्वर से मिटा दिया गया है।
file-ready-local = नतीजा तैयार है ({ $size } बाइट, इस ब्राउज़र में { $seconds } सेकंड; कुछ भी अपलोड नहीं हुआ)।
file-processing = प्रोसेस हो रहा है…
file-processing-local = इस ब्राउज़र में प्रोसेस हो रहा है… { $percent }%

## URL जाँचें
inspect-title = URL जाँचें
url = URL
base = आधार URL (वैकल्पिक)
inspect = जाँचें
resolved = हल किया गया (RFC 3986 §5.2)
view-whatwg = WHATWG URL मानक (ब्राउज़र)
view-rfc3986 = RFC 3986 सामान्य सिंटैक्स
drawn-url = URL, हिस्सा-दर-हिस्सा
part-scheme = स्कीम
part-user = यूज़र
part-password = पासवर्ड
part-host = होस्ट
part-port = पोर्ट
part-path = पाथ
part-query = क्वेरी
part-fragment = फ़्रैगमेंट
field-href = URL
field-origin = ओरिजिन
host-unicode = यूनिकोड में
host-type = प्रकार
port-default = स्कीम का डिफ़ॉल्ट पोर्ट: { $port }
none = कोई नहीं
query-name = नाम
query-value = मान
query-not-listed = { $count ->
    [one] …और { $count } जोड़ी
   *[other] …और { $count } जोड़ियाँ
}
fragment-decoded = डिकोड किया हुआ
warnings = चेतावनियाँ
warnings-none = कोई चेतावनी नहीं।
warnings-not-listed = …और { $count }
parse-failed = बाइट { $position }: { $message }
edit = URL बदलें
edit-component = हिस्सा
edit-value = मान
edit-set = सेट करें
edit-clear = हटाएँ
edit-append = पैरामीटर जोड़ें
edit-append-placeholder = नाम=मान
edit-trim = पैरामीटर हटाएँ
edit-trim-placeholder = नाम या utm_*
edit-sort = क्वेरी क्रम से लगाएँ
edit-apply = लागू करें
edit-unavailable = यह सर्वर अभी URL नहीं बदलता: URL जैसा है वैसा दिखाया गया है।
edit-refused = बदलाव अस्वीकार हुआ ({ $field }): { $message }
remove-pair = हटाएँ

## संदर्भ
reference-title = संदर्भ
reference-percent = परसेंट-एन्कोडिंग
reference-percent-text-html = URL में ASCII के कुछ ही अक्षर हो सकते हैं। हर दूसरा बाइट <code>%</code> और उसके बाद दो हेक्साडेसिमल अंकों के रूप में लिखा जाता है: स्पेस <code>%20</code> है। टेक्स्ट पहले किसी कैरेक्टर सेट में बाइट बनता है (आज UTF-8; पुरानी साइटें कोई और चाह सकती हैं), फिर जो बाइट वैसे ही रह सकने वाले सेट से बाहर है वह एस्केप होता है, इसलिए <code>é</code> UTF-8 में <code>%C3%A9</code> और windows-1252 में <code>%E9</code> बनता है (RFC 3986 §2.1)।
reference-form-text-html = <code>application/x-www-form-urlencoded</code> वह रूप है जो HTML फ़ॉर्म भेजते हैं: नाम और मान <code>name=value</code> जोड़ियों में <code>&amp;</code> से अलग किए जाते हैं, स्पेस <code>+</code> बनता है, और केवल <code>A–Z a–z 0–9 * - . _</code> वैसे ही रहते हैं। इसलिए फ़ॉर्म डेटा डिकोड करने पर <code>+</code> स्पेस बनता है; पाथ डिकोड करने पर नहीं।
reference-unreserved = अनारक्षित अक्षर (RFC 3986 §2.3)
reference-unreserved-text = इन्हें कभी एस्केप करने की ज़रूरत नहीं, और एस्केप हों या न हों, अर्थ वही रहता है:
reference-reserved = आरक्षित अक्षर (RFC 3986 §2.2)
reference-reserved-encoded = परसेंट-एन्कोडिंग के बाद आरक्षित अक्षर
reference-reserved-encoded-text = जब ये विभाजक नहीं बल्कि डेटा हों, तब इन्हें एस्केप करें:
reference-common = परसेंट-एन्कोडिंग के बाद आम अक्षर
reference-character = अक्षर
reference-encoded = एन्कोडेड
reference-encoded-utf8 = एन्कोडेड (UTF-8)
reference-role = भूमिका
reference-note = टिप्पणी
ref-space = स्पेस
ref-line-feed = लाइन फ़ीड
ref-carriage-return = कैरिज रिटर्न
ref-tab = टैब
ref-after-scheme = gen-delim: स्कीम के बाद, पोर्ट से पहले
ref-path-segments = gen-delim: पाथ के खंड
ref-starts-query = gen-delim: क्वेरी शुरू करता है
ref-starts-fragment = gen-delim: फ़्रैगमेंट शुरू करता है
ref-ipv6 = gen-delim: IPv6 पतों के चारों ओर
ref-ends-userinfo = gen-delim: यूज़र जानकारी ख़त्म करता है
ref-sub-delim = sub-delim
ref-separates-parameters = sub-delim: क्वेरी पैरामीटर अलग करता है
ref-space-in-form = sub-delim: फ़ॉर्म डेटा में स्पेस
ref-parameter-separator = sub-delim: कुछ स्कीमों में पैरामीटर विभाजक
ref-name-value = sub-delim: नाम और मान को अलग करता है
ref-plus-in-form = फ़ॉर्म डेटा में + (application/x-www-form-urlencoded)
ref-quotation-mark = उद्धरण चिह्न
ref-escape-character = ख़ुद एस्केप अक्षर
ref-less-than = से-कम चिह्न
ref-greater-than = से-अधिक चिह्न
ref-backslash = बैकस्लैश
ref-caret = कैरेट
ref-grave = ग्रेव एक्सेंट
ref-left-brace = बायाँ कोष्ठक
ref-vertical-bar = खड़ी रेखा
ref-right-brace = दायाँ कोष्ठक
ref-utf8-two = UTF-8: दो बाइट
ref-utf8-three = UTF-8: तीन बाइट
ref-utf8-four = UTF-8: चार बाइट

## Persistent URLs (urlkit purl serve): the resolver's page under /-/
purl-title = स्थायी URL
purl-tagline = नाम जो बने रहते हैं: हर रिकॉर्ड बताता है कि संसाधन अभी कहाँ है।
purl-nav-records = रिकॉर्ड
purl-nav-new = नया रिकॉर्ड
purl-log-in = लॉग इन करें
purl-log-out = लॉग आउट करें
purl-logged-in-as = { $user } के रूप में लॉग इन
purl-user = उपयोगकर्ता नाम
purl-password = पासवर्ड
purl-login-failed = यह उपयोगकर्ता नाम और पासवर्ड मेल नहीं खाते।
purl-need-login = रिकॉर्ड बदलने के लिए लॉग इन करें।
purl-csrf = इस फ़ॉर्म की अवधि समाप्त हो गई है; पेज फिर से लोड करके दोबारा कोशिश करें।
purl-unavailable = डेटाबेस अभी यह नहीं ले सकता; रीडायरेक्ट फिर भी दिए जा रहे हैं। थोड़ी देर में फिर कोशिश करें।
purl-search = खोजें
purl-search-name = नाम की शुरुआत
purl-search-target = लक्ष्य में शामिल
purl-no-results = कोई रिकॉर्ड मेल नहीं खाता।
purl-name = नाम
purl-answers = उत्तर
purl-domain = डोमेन
purl-version = संस्करण
purl-last-change = अंतिम बदलाव
purl-resolutions = रिज़ॉल्यूशन
purl-last-check = लक्ष्यों की पिछली जाँच
purl-archived = लक्ष्य अब उत्तर नहीं देता: आगंतुकों को { $since } से संग्रहीत प्रति पर भेजा जा रहा है:
purl-nav-checks = लक्ष्य
purl-checks-title = टूटे और स्थानांतरित लक्ष्य
purl-checks-none = कोई टूटा या स्थानांतरित लक्ष्य नहीं: हर लक्ष्य ने पिछली जाँच में उत्तर दिया, या अभी तक जाँचा नहीं गया।
purl-check-outcome = पिछली जाँच
purl-check-moved-to = यहाँ स्थानांतरित
purl-accept = नया लक्ष्य स्वीकारें
purl-no-suggestion = इस लक्ष्य की पिछली जाँच कोई नया लक्ष्य नहीं सुझाती।
purl-type = प्रकार
purl-type-redirect = रीडायरेक्ट
purl-type-partial = आंशिक: पथ का शेष भाग जुड़ता है
purl-type-chain = इस रिज़ॉल्वर के किसी दूसरे नाम तक शृंखला
purl-type-negotiate = मीडिया प्रकार और भाषा के अनुसार
purl-type-not-found = नहीं मिला (404)
purl-type-gone = हटाया गया (410)
purl-status = स्थिति कोड
purl-target = लक्ष्य URL
purl-chain-to = शृंखला इस तक
purl-message = संदेश
purl-offers = मीडिया प्रकार के अनुसार लक्ष्य, हर पंक्ति में एक: media/type [भाषा] URL
purl-fallback = वैकल्पिक URL, जब कोई मीडिया प्रकार मेल न खाए
purl-max-age = क्लाइंट उत्तर इतनी देर रख सकते हैं (सेकंड; खाली: { $default })
purl-reason = बदलाव का कारण
purl-preview = पूर्वावलोकन
purl-preview-path = आज़माने के लिए अनुरोध पथ
purl-preview-accept = आज़माने के लिए Accept हेडर
purl-preview-result = { $path } के अनुरोध को यह मिलेगा:
purl-save = सहेजें
purl-saved = संस्करण { $version } के रूप में सहेजा गया।
purl-stale = इस बीच किसी ने यह रिकॉर्ड बदल दिया (अब संस्करण { $version }, { $user } द्वारा)। आपका बदलाव नीचे सुरक्षित है; उनका बदलाव बदलने के लिए फिर से सहेजें।
purl-forbidden = आप यह नाम नहीं बदल सकते: यह डोमेन { $domain } का है।
purl-forbidden-nodomain = यह नाम किसी डोमेन में नहीं है; केवल व्यवस्थापक इसे बदल सकता है।
purl-invalid = { $field }: { $message }
purl-edit = संपादित करें
purl-delete = हटाएँ
purl-deleted = हटाया गया: यह नाम 410 देता है और इसका इतिहास बना रहता है।
purl-history = इतिहास
purl-event = संस्करण { $version }: { $user } द्वारा { $kind }
purl-kind-create = बनाया गया
purl-kind-update = बदला गया
purl-kind-delete = हटाया गया
purl-kind-restore = पुनर्स्थापित
purl-restore = संस्करण { $version } पुनर्स्थापित करें
