# The page of urlkit's web tool, in English: the reference catalog. Every other catalog
# has the same messages. Inputs, outputs, finding codes, charset and encode-set names are
# never translated. Messages ending in -html may hold <code> and <strong>.

## Language switch: each language is named in itself.
language-name = English
language-switch = Language

## Page
page-title = urlkit — URL encoder and decoder
meta-description = Percent-encode and decode text in any character set, and take URLs apart.
tagline = Percent-encode and decode text in any character set, and take URLs apart.
skip-to-input = Skip to the input
sections = Sections
nav-codec = Encode and decode
nav-files = Files
nav-inspect = Inspect
nav-reference = Reference
nav-api = API
footer-html = The HTTP API is described at <a href="/api/openapi.json">/api/openapi.json</a>; the licenses of the code urlkit includes are at <a href="/licenses">/licenses</a>.

## Encode and decode
codec-title = Encode and decode
direction = Direction
encode = Encode
decode = Decode
swap = Swap
swap-title = Put the output in the input and reverse the direction
direction-encode = Encoding: text → percent-encoded
direction-decode = Decoding: percent-encoded → text
direction-auto = Choose a direction, or just type: percent-encoded input is decoded, anything else encoded.
direction-auto-decoded = The input looks percent-encoded, so it was decoded.
direction-auto-encoded = The input does not look percent-encoded, so it was encoded.
encode-instead = Encode it instead
decode-instead = Decode it instead
kind-text = text
kind-encoded = percent-encoded
input = Input
output = Output
input-placeholder = Type or paste text, e.g. %E5%BC%95%E3%81%8D or a b&c
copy = Copy
download = Download
copied = Copied
copy-select = Selected: press Ctrl+C to copy
output-shown = Showing the start of the output ({ $shown } of { $total }); Copy, Download and Swap take all of it.
input-part = Large input ({ $size }): the box holds characters { $from }–{ $to } of { $length }; the rest is kept and used. Ctrl+A selects all of it.
input-part-start = Start
input-part-earlier = Earlier
input-part-later = Later
input-part-end = End
live-mode = Live mode
live-hint-on = runs in your browser: nothing is sent
live-hint-off = the server answers when you press a button
shortcuts = Keyboard
shortcut-encode = encode
shortcut-decode = decode
shortcut-swap = swap
shortcut-copy = copy the output

## Options
options = Options
options-both = Both directions
options-encoding = Encoding
options-decoding = Decoding
charset = Character set
charset-auto = auto — detect (decoding)
newline = Line separator
strict = Strict mode
strict-hint = reject bad input instead of repairing it
set = Encode set
safe = Also keep literal
unsafe = Also escape
space-plus-html = Space as <code>+</code>
lowercase = Lower-case hex
encode-per-line = Encode each line separately
plus-space-html = <code>+</code> as space
plus-space-hint = form data
keep-whitespace = Keep unencoded whitespace
until-stable = Decode until stable
until-stable-hint-html = peel every layer: <code>%2520</code> → space
decode-per-line = Decode each line separately

## Status line
status-charset = Character set: { $charset }
status-detected = Detected { $charset } (confidence { $confidence }%, { $reason })
status-layers = { $count ->
    [one] { $count } layer peeled
   *[other] { $count } layers peeled
}
status-other-readings = Other readings:
status-auto-encode = auto-detect applies to decoding; encoded as UTF-8
status-not-encoded = Not encoded
status-not-decoded = Not decoded
status-working = Working… { $percent }%
status-working-whole = Working…

## Findings
findings-title = Findings
findings-none = No findings.
findings-total = { $count ->
    [one] { $count } finding
   *[other] { $count } findings
}
findings-show-all = Show all { $count }
findings-first = The first { $shown } are listed here.
findings-not-listed = { $count ->
    [one] { $count } more was counted but not listed.
   *[other] { $count } more were counted but not listed.
}
at-byte = byte { $offset }
at-line = line { $line }, column { $column }
show-in-input = Show this position in the input
per-line-offer = These look like several URLs joined together: the line breaks between them were removed.
per-line-action = Decode each line separately
library-language = en

## What each finding code means (the codes themselves stay as they are)
code-malformed-escape = a % not followed by two hex digits
code-invalid-sequence = bytes that are not valid in the character set
code-unencodable-character = a character the character set cannot represent
code-invalid-input = text that is not valid UTF-8
code-control-character = an escape that decodes to a control character
code-bidi-character = an escape that decodes to a bidirectional formatting character, which can disguise text
code-multiple-layers = the text looks percent-encoded more than once (Decode until stable peels every layer)
code-url-too-long = a URL longer than many servers accept
code-password-in-url = a password in the URL
code-charset-detected = the character set auto-detection chose
code-whitespace-removed = unencoded whitespace was removed
code-explicit-default-port = the URL names its scheme's default port
code-whitespace-stripped = the URL parser dropped whitespace or control characters
code-backslash-as-slash = the URL parser read a backslash as a slash
code-non-canonical-ipv4 = an IPv4 address written in an unusual form
code-mixed-script = a host name that mixes scripts
code-confusable-host = a host name that imitates another
code-validation-error = something the URL parser repaired
code-literal-non-ascii = a literal non-ASCII byte, read in the character set
code-entries-joined = a line break removed between two entries

## Errors: what happened and what to do
error-too-large-text = The input is larger than the server takes for text ({ $limit }). Use Files below for large inputs, or turn on Live mode: it works in this browser and sends nothing.
error-too-large-file = The file is larger than the upload limit ({ $limit }). Turn on Live mode to process it in this browser: nothing is uploaded and there is no limit.
error-rejected = Strict mode rejected the input at byte { $offset }: { $problem }.
error-rejected-line = Strict mode rejected the input at line { $line }, column { $column } (byte { $offset }): { $problem }.
error-rejected-next = Correct it there, or turn off Strict mode to have such input repaired instead.
error-invalid-request = The option “{ $field }” was not understood: { $message }
error-network = The server could not be reached ({ $message }). Live mode works without it.
error-busy = The server is busy; try again in a few seconds.
error-store-full = The server has no room for results now; try again later, or use Live mode.
error-no-file = Choose a file first.
error-live-failed = Live mode could not start ({ $message }); turn it off to use the server.

## Files
files-title = Files
files-intro-html = Encode or decode a file. The upload is deleted as soon as it is processed; the result can be downloaded <strong>once</strong> and is deleted at the first download, or after a while if nobody fetches it. Without a character set the bytes are escaped or decoded as they are.
files-live-note = With Live mode on, the file is processed in this browser, a megabyte at a time, and never uploaded.
file-operation = Operation
file-charset-bytes = bytes as they are (no character set)
file-plus-space-html = <code>+</code> as space (decoding)
file-per-line = Each line separately
file = File
upload = Upload and process
process-in-browser = Process in the browser
file-ready = Result ready ({ $size } bytes).
file-download = Download the result
file-once = It can be downloaded once, until { $expires }.
file-downloaded = Downloaded ({ $size } bytes): the result is now deleted from the server.
file-ready-local = Result ready ({ $size } bytes, { $seconds } s in this browser; nothing was uploaded).
file-processing = Processing…
file-processing-local = Processing in this browser… { $percent }%

## Inspect
inspect-title = Inspect a URL
url = URL
base = Base URL (optional)
inspect = Inspect
resolved = Resolved (RFC 3986 §5.2)
view-whatwg = WHATWG URL Standard (browsers)
view-rfc3986 = RFC 3986 generic syntax
drawn-url = The URL, part by part
part-scheme = scheme
part-user = user
part-password = password
part-host = host
part-port = port
part-path = path
part-query = query
part-fragment = fragment
field-href = URL
field-origin = origin
host-unicode = in Unicode
host-type = type
port-default = default port of the scheme: { $port }
none = none
query-name = name
query-value = value
query-not-listed = { $count ->
    [one] …and { $count } more pair
   *[other] …and { $count } more pairs
}
fragment-decoded = decoded
warnings = Warnings
warnings-none = No warnings.
warnings-not-listed = …and { $count } more
parse-failed = byte { $position }: { $message }
edit = Edit the URL
edit-component = Component
edit-value = Value
edit-set = Set
edit-clear = Clear
edit-append = Add a parameter
edit-append-placeholder = name=value
edit-trim = Remove parameters
edit-trim-placeholder = name or utm_*
edit-sort = Sort the query
edit-apply = Apply
edit-unavailable = This server does not edit URLs yet: the URL is shown as it is.
edit-refused = The change was refused ({ $field }): { $message }
remove-pair = Remove

## Reference
reference-title = Reference
reference-percent = Percent-encoding
reference-percent-text-html = A URL may only contain a small set of ASCII characters. Any other byte is written as <code>%</code> followed by two hexadecimal digits: a space is <code>%20</code>. Text is first turned into bytes in a character set (UTF-8 today; older sites may expect another), then each byte outside the set that may stay literal is escaped, so <code>é</code> becomes <code>%C3%A9</code> in UTF-8 and <code>%E9</code> in windows-1252 (RFC 3986 §2.1).
reference-form-text-html = <code>application/x-www-form-urlencoded</code> is the variant HTML forms send: names and values are joined as <code>name=value</code> pairs separated by <code>&amp;</code>, a space becomes <code>+</code>, and only <code>A–Z a–z 0–9 * - . _</code> stay literal. Decoding form data therefore turns <code>+</code> into a space; decoding a path does not.
reference-unreserved = Unreserved characters (RFC 3986 §2.3)
reference-unreserved-text = They never need escaping and mean the same escaped or not:
reference-reserved = Reserved characters (RFC 3986 §2.2)
reference-reserved-encoded = Reserved characters after percent-encoding
reference-reserved-encoded-text = Escape them when they are data rather than delimiters:
reference-common = Common characters after percent-encoding
reference-character = Character
reference-encoded = Encoded
reference-encoded-utf8 = Encoded (UTF-8)
reference-role = Role
reference-note = Note
ref-space = space
ref-line-feed = line feed
ref-carriage-return = carriage return
ref-tab = tab
ref-after-scheme = gen-delim: after the scheme, before the port
ref-path-segments = gen-delim: path segments
ref-starts-query = gen-delim: starts the query
ref-starts-fragment = gen-delim: starts the fragment
ref-ipv6 = gen-delim: around IPv6 literals
ref-ends-userinfo = gen-delim: ends the userinfo
ref-sub-delim = sub-delim
ref-separates-parameters = sub-delim: separates query parameters
ref-space-in-form = sub-delim: a space in form data
ref-parameter-separator = sub-delim: parameter separator in some schemes
ref-name-value = sub-delim: separates name and value
ref-plus-in-form = + in form data (application/x-www-form-urlencoded)
ref-quotation-mark = quotation mark
ref-escape-character = the escape character itself
ref-less-than = less-than sign
ref-greater-than = greater-than sign
ref-backslash = backslash
ref-caret = caret
ref-grave = grave accent
ref-left-brace = left brace
ref-vertical-bar = vertical bar
ref-right-brace = right brace
ref-utf8-two = UTF-8: two bytes
ref-utf8-three = UTF-8: three bytes
ref-utf8-four = UTF-8: four bytes

## Persistent URLs (urlkit purl serve): the resolver's page under /-/
purl-title = Persistent URLs
purl-tagline = Names that stay: each record says where a resource lives now.
purl-nav-records = Records
purl-nav-new = New record
purl-log-in = Log in
purl-log-out = Log out
purl-logged-in-as = Logged in as { $user }
purl-user = User name
purl-password = Password
purl-login-failed = That user name and password do not match.
purl-need-login = Log in to change records.
purl-csrf = This form has expired; reload the page and try again.
purl-unavailable = The database cannot take this now; redirects are still answered. Try again in a moment.
purl-search = Search
purl-search-name = Name starts with
purl-search-target = Target contains
purl-no-results = No records match.
purl-name = Name
purl-answers = Answers
purl-domain = Domain
purl-version = Version
purl-last-change = Last change
purl-resolutions = Resolutions
purl-last-check = Last check of its targets
purl-archived = The target no longer answers: visitors are sent to an archived copy since { $since }:
purl-nav-checks = Targets
purl-checks-title = Broken and moved targets
purl-checks-none = No broken or moved targets: every target answered at its last check, or none was checked yet.
purl-check-outcome = Last check
purl-check-moved-to = Moved to
purl-accept = Accept the new target
purl-no-suggestion = The last check of this target suggests no new one.
purl-type = Type
purl-type-redirect = Redirect
purl-type-partial = Partial: the rest of the path follows
purl-type-chain = Chain to another name of this resolver
purl-type-negotiate = By media type and language
purl-type-not-found = Not found (404)
purl-type-gone = Gone (410)
purl-status = Status
purl-target = Target URL
purl-chain-to = Chain to
purl-message = Message
purl-offers = Targets by media type, one a line: media/type [language] URL
purl-fallback = Fallback URL, when no media type fits
purl-max-age = Clients may keep the answer for (seconds; empty: { $default })
purl-reason = Reason for the change
purl-preview = Preview
purl-preview-path = Request path to try
purl-preview-accept = Accept header to try
purl-preview-result = A request for { $path } would get:
purl-save = Save
purl-saved = Saved as version { $version }.
purl-stale = Someone changed this record meanwhile (now version { $version }, by { $user }). Your edit is kept below; save again to replace theirs.
purl-forbidden = You may not write this name: it belongs to the domain { $domain }.
purl-forbidden-nodomain = This name lies in no domain; only an administrator may write it.
purl-invalid = { $field }: { $message }
purl-edit = Edit
purl-delete = Delete
purl-deleted = Deleted: this name answers 410 and keeps its history.
purl-history = History
purl-event = Version { $version }: { $kind } by { $user }
purl-kind-create = created
purl-kind-update = changed
purl-kind-delete = deleted
purl-kind-restore = restored
purl-restore = Restore version { $version }
