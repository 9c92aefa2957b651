# Stránka webového nástroje urlkit česky. Vstupy, výstupy, kódy nálezů a názvy znakových
# sad a sad kódování se nepřekládají. Zprávy končící na -html mohou obsahovat <code> a <strong>.

## Přepínač jazyka
language-name = Čeština
language-switch = Jazyk

## Stránka
page-title = urlkit — kódování a dekódování URL
meta-description = Procentové kódování a dekódování textu v libovolné znakové sadě a rozbor URL.
tagline = Procentové kódování a dekódování textu v libovolné znakové sadě a rozbor URL.
skip-to-input = Přejít na vstup
sections = Oddíly
nav-codec = Kódování a dekódování
nav-files = Soubory
nav-inspect = Rozbor URL
nav-reference = Přehled
nav-api = API
footer-html = HTTP API popisuje <a href="/api/openapi.json">/api/openapi.json</a>; licence kódu, který urlkit obsahuje, jsou na <a href="/licenses">/licenses</a>.

## Kódování a dekódování
codec-title = Kódování a dekódování
direction = Směr
encode = Zakódovat
decode = Dekódovat
swap = Prohodit
swap-title = Vložit výstup do vstupu a obrátit směr
direction-encode = Kódování: text → procentové kódování
direction-decode = Dekódování: procentové kódování → text
direction-auto = Zvolte směr, nebo jen pište: procentově zakódovaný vstup se dekóduje, cokoli jiného zakóduje.
direction-auto-decoded = Vstup vypadá procentově zakódovaný, proto byl dekódován.
direction-auto-encoded = Vstup nevypadá procentově zakódovaný, proto byl zakódován.
encode-instead = Raději zakódovat
decode-instead = Raději dekódovat
kind-text = text
kind-encoded = procentově zakódováno
input = Vstup
output = Výstup
input-placeholder = Napište nebo vložte text, např. %E5%BC%95%E3%81%8D nebo a b&c
copy = Kopírovat
download = Stáhnout
copied = Zkopírováno
copy-select = Označeno: zkopírujte klávesami Ctrl+C
output-shown = Zobrazen je začátek výstupu ({ $shown } z { $total }); Kopírovat, Stáhnout i Prohodit berou celý výstup.
input-part = Velký vstup ({ $size }): pole obsahuje znaky { $from }–{ $to } z { $length }; zbytek je uschován a zpracuje se také. Ctrl+A vybere celý vstup.
input-part-start = Začátek
input-part-earlier = Předchozí
input-part-later = Další
input-part-end = Konec
live-mode = Živý režim
live-hint-on = běží ve vašem prohlížeči: nic se neodesílá
live-hint-off = server odpoví po stisku tlačítka
shortcuts = Klávesnice
shortcut-encode = zakódovat
shortcut-decode = dekódovat
shortcut-swap = prohodit
shortcut-copy = zkopírovat výstup

## Volby
options = Volby
options-both = Oba směry
options-encoding = Kódování
options-decoding = Dekódování
charset = Znaková sada
charset-auto = auto — rozpoznat (při dekódování)
newline = Oddělovač řádků
strict = Přísný režim
strict-hint = chybný vstup odmítnout místo opravy
set = Sada kódování
safe = Ponechat i tyto znaky
unsafe = Kódovat i tyto znaky
space-plus-html = Mezera jako <code>+</code>
lowercase = Šestnáctkové číslice malými písmeny
encode-per-line = Kódovat každý řádek zvlášť
plus-space-html = <code>+</code> jako mezera
plus-space-hint = data formulářů
keep-whitespace = Ponechat nezakódované bílé znaky
until-stable = Dekódovat až do ustálení
until-stable-hint-html = sloupne všechny vrstvy: <code>%2520</code> → mezera
decode-per-line = Dekódovat každý řádek zvlášť

## Stavový řádek
status-charset = Znaková sada: { $charset }
status-detected = Rozpoznáno { $charset } (jistota { $confidence } %, { $reason })
status-layers = { $count ->
    [one] sloupnuta { $count } vrstva
    [few] sloupnuty { $count } vrstvy
   *[other] sloupnuto { $count } vrstev
}
status-other-readings = Jiná čtení:
status-auto-encode = rozpoznávání platí pro dekódování; zakódováno v UTF-8
status-not-encoded = Nezakódováno
status-not-decoded = Nedekódováno
status-working = Pracuji… { $percent } %
status-working-whole = Pracuji…

## Nálezy
findings-title = Nálezy
findings-none = Žádné nálezy.
findings-total = { $count ->
    [one] { $count } nález
    [few] { $count } nálezy
   *[other] { $count } nálezů
}
findings-show-all = Zobrazit všech { $count }
findings-first = Zde je uvedeno prvních { $shown }.
findings-not-listed = { $count ->
    [one] Další { $count } byl započten, ale neuveden.
    [few] Další { $count } byly započteny, ale neuvedeny.
   *[other] Dalších { $count } bylo započteno, ale neuvedeno.
}
at-byte = bajt { $offset }
at-line = řádek { $line }, sloupec { $column }
show-in-input = Ukázat toto místo ve vstupu
per-line-offer = Vypadá to na několik spojených URL: zalomení řádků mezi nimi bylo odstraněno.
per-line-action = Dekódovat každý řádek zvlášť
library-language = en

## Význam kódů nálezů (kódy samy zůstávají beze změny)
code-malformed-escape = znak % bez dvou šestnáctkových číslic
code-invalid-sequence = bajty, které ve znakové sadě nejsou platné
code-unencodable-character = znak, který znaková sada nedokáže vyjádřit
code-invalid-input = text, který není platné UTF-8
code-control-character = escape sekvence dekódovaná na řídicí znak
code-bidi-character = escape sekvence dekódovaná na znak pro směr textu, který může text zamaskovat
code-multiple-layers = text vypadá vícekrát procentově zakódovaný (Dekódovat až do ustálení sloupne všechny vrstvy)
code-url-too-long = URL delší, než mnohé servery přijmou
code-password-in-url = heslo v URL
code-charset-detected = znaková sada zvolená rozpoznáním
code-whitespace-removed = nezakódované bílé znaky byly odstraněny
code-explicit-default-port = URL uvádí výchozí port svého schématu
code-whitespace-stripped = parser URL vypustil bílé či řídicí znaky
code-backslash-as-slash = parser URL přečetl zpětné lomítko jako lomítko
code-non-canonical-ipv4 = adresa IPv4 zapsaná neobvyklým způsobem
code-mixed-script = název hostitele míchající písma
code-confusable-host = název hostitele napodobující jiný
code-validation-error = něco, co parser URL opravil
code-literal-non-ascii = nezakódovaný bajt mimo ASCII, přečtený ve znakové sadě
code-entries-joined = zalomení řádku odstraněné mezi dvěma položkami

## Chyby: co se stalo a co dál
error-too-large-text = Vstup je větší, než server pro text přijímá ({ $limit }). Velké vstupy zpracujte v oddílu Soubory níže, nebo zapněte Živý režim: běží v tomto prohlížeči a nic neodesílá.
error-too-large-file = Soubor je větší než limit pro nahrání ({ $limit }). Zapněte Živý režim a zpracujte jej v tomto prohlížeči: nic se nenahrává a žádný limit neplatí.
error-rejected = Přísný režim odmítl vstup na bajtu { $offset }: { $problem }.
error-rejected-line = Přísný režim odmítl vstup na řádku { $line }, sloupci { $column } (bajt { $offset }): { $problem }.
error-rejected-next = Opravte jej tam, nebo vypněte Přísný režim, aby se takový vstup opravil sám.
error-invalid-request = Volbě „{ $field }“ nebylo rozumět: { $message }
error-network = Server není dostupný ({ $message }). Živý režim funguje i bez něj.
error-busy = Server je zaneprázdněn; zkuste to za pár sekund znovu.
error-store-full = Server teď nemá místo na výsledky; zkuste to později, nebo použijte Živý režim.
error-no-file = Nejprve vyberte soubor.
error-live-failed = Živý režim se nepodařilo spustit ({ $message }); vypněte jej a použijte server.

## Soubory
files-title = Soubory
files-intro-html = Zakódujte nebo dekódujte soubor. Nahraný soubor se smaže hned po zpracování; výsledek lze stáhnout <strong>jednou</strong> a smaže se při prvním stažení, nebo po čase, pokud si jej nikdo nestáhne. Bez znakové sady se bajty kódují či dekódují tak, jak jsou.
files-live-note = Se zapnutým Živým režimem se soubor zpracuje v tomto prohlížeči po megabajtech a nikam se nenahrává.
file-operation = Operace
file-charset-bytes = bajty tak, jak jsou (bez znakové sady)
file-plus-space-html = <code>+</code> jako mezera (dekódování)
file-per-line = Každý řádek zvlášť
file = Soubor
upload = Nahrát a zpracovat
process-in-browser = Zpracovat v prohlížeči
file-ready = Výsledek je připraven ({ $size } bajtů).
file-download = Stáhnout výsledek
file-once = Lze jej stáhnout jednou, do { $expires }.
file-downloaded = Staženo ({ $size } bajtů): výsledek je nyní ze serveru smazán.
file-ready-local = Výsledek je připraven ({ $size } bajtů, { $seconds } s v tomto prohlížeči; nic se nenahrálo).
file-processing = Zpracovávám…
file-processing-local = Zpracovávám v tomto prohlížeči… { $percent } %

## Rozbor URL
inspect-title = Rozbor URL
url = URL
base = Základní URL (nepovinné)
inspect = Rozebrat
resolved = Vyřešeno (RFC 3986 §5.2)
view-whatwg = Standard URL WHATWG (prohlížeče)
view-rfc3986 = Obecná syntaxe RFC 3986
drawn-url = URL po částech
part-scheme = schéma
part-user = uživatel
part-password = heslo
part-host = hostitel
part-port = port
part-path = cesta
part-query = dotaz
part-fragment = fragment
field-href = URL
field-origin = původ
host-unicode = v Unicode
host-type = typ
port-default = výchozí port schématu: { $port }
none = žádný
query-name = název
query-value = hodnota
query-not-listed = { $count ->
    [one] …a ještě { $count } dvojice
    [few] …a ještě { $count } dvojice
   *[other] …a ještě { $count } dvojic
}
fragment-decoded = dekódováno
warnings = Varování
warnings-none = Žádná varování.
warnings-not-listed = …a ještě { $count }
parse-failed = bajt { $position }: { $message }
edit = Upravit URL
edit-component = Část
edit-value = Hodnota
edit-set = Nastavit
edit-clear = Smazat
edit-append = Přidat parametr
edit-append-placeholder = název=hodnota
edit-trim = Odebrat parametry
edit-trim-placeholder = název nebo utm_*
edit-sort = Seřadit dotaz
edit-apply = Použít
edit-unavailable = Tento server zatím URL neupravuje: URL je zobrazena tak, jak je.
edit-refused = Změna byla odmítnuta ({ $field }): { $message }
remove-pair = Odebrat

## Přehled
reference-title = Přehled
reference-percent = Procentové kódování
reference-percent-text-html = URL smí obsahovat jen malou množinu znaků ASCII. Každý jiný bajt se zapíše jako <code>%</code> následované dvěma šestnáctkovými číslicemi: mezera je <code>%20</code>. Text se nejprve převede na bajty v nějaké znakové sadě (dnes UTF-8; starší weby mohou čekat jinou) a pak se zakóduje každý bajt mimo sadu znaků, které smějí zůstat, takže <code>é</code> je v UTF-8 <code>%C3%A9</code> a ve windows-1252 <code>%E9</code> (RFC 3986 §2.1).
reference-form-text-html = <code>application/x-www-form-urlencoded</code> je varianta, kterou posílají formuláře HTML: názvy a hodnoty tvoří dvojice <code>název=hodnota</code> oddělené znakem <code>&amp;</code>, mezera se stává <code>+</code> a beze změny zůstávají jen <code>A–Z a–z 0–9 * - . _</code>. Dekódování dat formuláře proto mění <code>+</code> na mezeru; dekódování cesty ne.
reference-unreserved = Nevyhrazené znaky (RFC 3986 §2.3)
reference-unreserved-text = Nikdy není třeba je kódovat a znamenají totéž zakódované i nezakódované:
reference-reserved = Vyhrazené znaky (RFC 3986 §2.2)
reference-reserved-encoded = Vyhrazené znaky po procentovém kódování
reference-reserved-encoded-text = Kódujte je, jsou-li daty, ne oddělovači:
reference-common = Běžné znaky po procentovém kódování
reference-character = Znak
reference-encoded = Zakódováno
reference-encoded-utf8 = Zakódováno (UTF-8)
reference-role = Role
reference-note = Poznámka
ref-space = mezera
ref-line-feed = odřádkování
ref-carriage-return = návrat vozíku
ref-tab = tabulátor
ref-after-scheme = gen-delim: za schématem, před portem
ref-path-segments = gen-delim: segmenty cesty
ref-starts-query = gen-delim: začíná dotaz
ref-starts-fragment = gen-delim: začíná fragment
ref-ipv6 = gen-delim: kolem adres IPv6
ref-ends-userinfo = gen-delim: končí údaje o uživateli
ref-sub-delim = sub-delim
ref-separates-parameters = sub-delim: odděluje parametry dotazu
ref-space-in-form = sub-delim: mezera v datech formulářů
ref-parameter-separator = sub-delim: oddělovač parametrů v některých schématech
ref-name-value = sub-delim: odděluje název a hodnotu
ref-plus-in-form = + v datech formulářů (application/x-www-form-urlencoded)
ref-quotation-mark = uvozovky
ref-escape-character = sám escape znak
ref-less-than = znak menší než
ref-greater-than = znak větší než
ref-backslash = zpětné lomítko
ref-caret = stříška
ref-grave = obrácený čárkový akcent
ref-left-brace = levá složená závorka
ref-vertical-bar = svislá čára
ref-right-brace = pravá složená závorka
ref-utf8-two = UTF-8: dva bajty
ref-utf8-three = UTF-8: tři bajty
ref-utf8-four = UTF-8: čtyři bajty

## Persistent URLs (urlkit purl serve): the resolver's page under /-/
purl-title = Trvalé adresy URL
purl-tagline = Jména, která zůstávají: každý záznam říká, kde zdroj právě je.
purl-nav-records = Záznamy
purl-nav-new = Nový záznam
purl-log-in = Přihlásit se
purl-log-out = Odhlásit se
purl-logged-in-as = Přihlášen(a) jako { $user }
purl-user = Uživatelské jméno
purl-password = Heslo
purl-login-failed = Uživatelské jméno a heslo si neodpovídají.
purl-need-login = Pro změny záznamů se přihlaste.
purl-csrf = Platnost formuláře vypršela; načtěte stránku znovu a zkuste to ještě jednou.
purl-unavailable = Databáze teď nemůže požadavek přijmout; přesměrování dál fungují. Zkuste to za chvíli.
purl-search = Hledat
purl-search-name = Jméno začíná na
purl-search-target = Cíl obsahuje
purl-no-results = Žádný záznam neodpovídá.
purl-name = Jméno
purl-answers = Odpovídá
purl-domain = Doména
purl-version = Verze
purl-last-change = Poslední změna
purl-resolutions = Překladů
purl-last-check = Poslední kontrola cílů
purl-archived = Cíl už neodpovídá: návštěvníci jsou od { $since } posíláni na archivovanou kopii:
purl-nav-checks = Cíle
purl-checks-title = Nefunkční a přesunuté cíle
purl-checks-none = Žádné nefunkční ani přesunuté cíle: každý cíl při poslední kontrole odpověděl, nebo ještě nebyl zkontrolován.
purl-check-outcome = Poslední kontrola
purl-check-moved-to = Přesunuto na
purl-accept = Přijmout nový cíl
purl-no-suggestion = Poslední kontrola tohoto cíle žádný nový nenavrhuje.
purl-type = Druh
purl-type-redirect = Přesměrování
purl-type-partial = Částečné: zbytek cesty se připojí
purl-type-chain = Řetěz k jinému jménu tohoto resolveru
purl-type-negotiate = Podle typu média a jazyka
purl-type-not-found = Nenalezeno (404)
purl-type-gone = Odstraněno (410)
purl-status = Stavový kód
purl-target = Cílová adresa URL
purl-chain-to = Řetěz k
purl-message = Zpráva
purl-offers = Cíle podle typu média, jeden na řádek: typ/podtyp [jazyk] URL
purl-fallback = Náhradní adresa URL, když žádný typ nevyhovuje
purl-max-age = Klienti si odpověď smějí ponechat (sekundy; prázdné: { $default })
purl-reason = Důvod změny
purl-preview = Náhled
purl-preview-path = Zkusit cestu požadavku
purl-preview-accept = Zkusit hlavičku Accept
purl-preview-result = Požadavek na { $path } by dostal:
purl-save = Uložit
purl-saved = Uloženo jako verze { $version }.
purl-stale = Mezitím záznam změnil někdo jiný (nyní verze { $version }, { $user }). Vaše úprava zůstala níže; dalším uložením jeho změnu nahradíte.
purl-forbidden = Toto jméno nesmíte měnit: patří doméně { $domain }.
purl-forbidden-nodomain = Toto jméno nepatří žádné doméně; měnit ho smí jen správce.
purl-invalid = { $field }: { $message }
purl-edit = Upravit
purl-delete = Smazat
purl-deleted = Smazáno: toto jméno odpovídá 410 a jeho historie zůstává.
purl-history = Historie
purl-event = Verze { $version }: { $kind } ({ $user })
purl-kind-create = vytvořeno
purl-kind-update = změněno
purl-kind-delete = smazáno
purl-kind-restore = obnoveno
purl-restore = Obnovit verzi { $version }
