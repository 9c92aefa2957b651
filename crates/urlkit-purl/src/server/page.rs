//! The page under `/-/`: browse and search records, log in, create and edit them with a
//! preview of what a request would get, read their history with what each change changed,
//! restore a version or delete. Plain HTML forms, usable without JavaScript, in the web
//! tool's look and languages; every form carries the session's CSRF token.

use super::api::RecordView;
use super::session::{self, Session, LOGIN_COOKIE, SESSION_COOKIE, SESSION_TTL};
use super::PurlState;
use crate::model::{Actor, Body, Event, EventKind, Expect, Stored, Version};
use crate::store::{Search, WriteError};
use axum::extract::{Form, RawQuery, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode, Uri};
use axum::response::{Html, IntoResponse, Response};
use std::collections::HashMap;
use std::fmt::Write;
use std::time::Duration;
use urlkit::purl::{Action, Answer, Name, Offer, Table, RESERVED_PREFIX};
use urlkit_web::i18n::{language, remember_language};
use urlkit_web::i18n::{Arg, Catalog, Lang};
use urlkit_web::page::language_links_to;
use urlkit_web::page::view::escape;

/// The form fields of a page's POST, by name.
pub type Fields = HashMap<String, String>;

/// What every page knows of its request: the language, and who is logged in.
pub struct Ctx {
    lang: Lang,
    chosen: Option<Lang>,
    session: Option<(String, Session)>,
    actor: Option<Actor>,
    /// Whether the session's user could not be read (the database is down): a write is
    /// then unavailable, not unauthorised.
    store_failed: bool,
    path: String,
}

impl Ctx {
    fn catalog(&self) -> &'static Catalog {
        self.lang.catalog()
    }

    /// A message, escaped for HTML.
    fn t(&self, id: &str) -> String {
        escape(&self.catalog().text(id))
    }

    /// A message with arguments, escaped for HTML.
    fn f(&self, id: &str, args: &[(&str, Arg)]) -> String {
        escape(&self.catalog().format(id, args))
    }

    fn csrf(&self) -> &str {
        self.session.as_ref().map_or("", |(_, s)| s.csrf.as_str())
    }

    fn csrf_field(&self) -> String {
        format!(
            "<input type=\"hidden\" name=\"csrf\" value=\"{}\">",
            escape(self.csrf())
        )
    }

    /// Whether the form's CSRF token is this session's.
    fn form_is_ours(&self, fields: &Fields) -> bool {
        match (&self.session, fields.get("csrf")) {
            (Some((_, s)), Some(sent)) => session::same_secret(&s.csrf, sent),
            _ => false,
        }
    }
}

/// The context of a request.
pub async fn context(state: &PurlState, uri: &Uri, headers: &HeaderMap) -> Ctx {
    let (lang, chosen) = language(uri.query(), headers);
    let session = state.sessions.of(headers);
    let mut store_failed = false;
    let actor = match &session {
        Some((_, s)) => match state.registry.store().actor(&s.user).await {
            Ok(actor) => actor,
            Err(_) => {
                store_failed = true;
                None
            }
        },
        None => None,
    };
    Ctx {
        lang,
        chosen,
        session,
        actor,
        store_failed,
        // The one page outside /-/ is a record's `?info`, whose language switch must not
        // follow the record: it points at the same view under /-/info.
        path: if uri.path().starts_with(RESERVED_PREFIX) {
            uri.path().to_string()
        } else {
            format!("/-/info{}", uri.path())
        },
    }
}

/// The page around `main`, as an answer.
fn layout(ctx: &Ctx, state: &PurlState, status: StatusCode, title: &str, main: &str) -> Response {
    let mut out = String::with_capacity(main.len() + 2048);
    let _ = write!(
        out,
        "<!doctype html><html lang=\"{tag}\" dir=\"{dir}\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <meta name=\"color-scheme\" content=\"light dark\"><link rel=\"icon\" href=\"data:,\">\
         <title>{title} — {product}</title>\
         <link rel=\"stylesheet\" href=\"/-/assets/style.css\"></head><body>\
         <header><div class=\"masthead\"><p class=\"brand\" translate=\"no\">urlkit</p>\
         <nav class=\"languages\" aria-label=\"{switch}\">{languages}</nav></div>\
         <p class=\"tagline\">{tagline}</p><nav class=\"sections\" aria-label=\"{sections}\">\
         <a href=\"/-/\">{records}</a><a href=\"/-/checks\">{checks}</a>",
        tag = ctx.lang.tag(),
        dir = ctx.lang.dir(),
        title = escape(title),
        product = ctx.t("purl-title"),
        switch = ctx.t("language-switch"),
        languages = language_links_to(&ctx.path, ctx.lang),
        tagline = ctx.t("purl-tagline"),
        sections = ctx.t("sections"),
        records = ctx.t("purl-nav-records"),
        checks = ctx.t("purl-nav-checks"),
    );
    match &ctx.session {
        Some((_, s)) => {
            let _ = write!(
                out,
                "<a href=\"/-/new\">{new}</a><a href=\"/-/api/openapi.json\">{api}</a>\
                 <form method=\"post\" action=\"/-/logout\" class=\"inline\">{csrf}\
                 <span>{who}</span> <button type=\"submit\" class=\"link\">{out_label}</button></form>",
                new = ctx.t("purl-nav-new"),
                api = ctx.t("nav-api"),
                csrf = ctx.csrf_field(),
                who = ctx.f("purl-logged-in-as", &[("user", Arg::Text(&s.user))]),
                out_label = ctx.t("purl-log-out"),
            );
        }
        None => {
            let _ = write!(
                out,
                "<a href=\"/-/api/openapi.json\">{api}</a><a href=\"/-/login\">{login}</a>",
                api = ctx.t("nav-api"),
                login = ctx.t("purl-log-in"),
            );
        }
    }
    let _ = write!(out, "</nav></header><main>{main}</main></body></html>");
    let mut response = (status, Html(out)).into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_LANGUAGE,
        HeaderValue::from_static(ctx.lang.tag()),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    remember_language(headers, ctx.chosen, state.tls);
    response
}

fn see_other(location: &str) -> Response {
    let mut response = StatusCode::SEE_OTHER.into_response();
    if let Ok(value) = HeaderValue::from_str(location) {
        response.headers_mut().insert(header::LOCATION, value);
    }
    response
}

/// A short description of what a record answers.
fn summary(body: &Body) -> String {
    match &body.action {
        Action::Redirect { status, target } => format!("{status} → {target}"),
        Action::Partial { status, target } => format!("{status} → {target}…"),
        Action::Chain { to } => format!("→ {to}"),
        Action::Negotiate { status, offers, .. } => {
            let types: Vec<&str> = offers.iter().map(|o| o.media_type.as_str()).collect();
            format!("{status} ({})", types.join(", "))
        }
        Action::NotFound { message } => format!("404 {message}"),
        Action::Gone { message } => format!("410 {message}"),
    }
}

fn query_value(query: Option<&str>, key: &str) -> Option<String> {
    form_urlencoded::parse(query.unwrap_or("").as_bytes())
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.into_owned())
        .filter(|v| !v.is_empty())
}

/// `GET /-/`: search records by name, target or domain.
pub async fn home(
    State(state): State<PurlState>,
    uri: Uri,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
) -> Response {
    let ctx = context(&state, &uri, &headers).await;
    let q = query.as_deref();
    let name = query_value(q, "name");
    let target = query_value(q, "target");
    let domain_text = query_value(q, "domain");
    let mut main = String::new();
    let _ = write!(
        main,
        "<section><h1>{title}</h1><form method=\"get\" action=\"/-/\" class=\"options\">\
         <div class=\"row\"><label for=\"name\">{l_name}</label>\
         <input id=\"name\" name=\"name\" value=\"{v_name}\" placeholder=\"/net/\"></div>\
         <div class=\"row\"><label for=\"target\">{l_target}</label>\
         <input id=\"target\" name=\"target\" value=\"{v_target}\"></div>\
         <div class=\"row\"><label for=\"domain\">{l_domain}</label>\
         <input id=\"domain\" name=\"domain\" value=\"{v_domain}\"></div>\
         <button type=\"submit\">{search}</button></form>",
        title = ctx.t("purl-title"),
        l_name = ctx.t("purl-search-name"),
        v_name = escape(name.as_deref().unwrap_or("")),
        l_target = ctx.t("purl-search-target"),
        v_target = escape(target.as_deref().unwrap_or("")),
        l_domain = ctx.t("purl-domain"),
        v_domain = escape(domain_text.as_deref().unwrap_or("")),
        search = ctx.t("purl-search"),
    );
    let domain = match domain_text.as_deref().map(Name::parse).transpose() {
        Ok(domain) => domain,
        Err(e) => {
            let _ = write!(
                main,
                "<p class=\"error\" role=\"alert\">{}: {}</p></section>",
                ctx.t("purl-domain"),
                escape(&e.to_string())
            );
            return layout(
                &ctx,
                &state,
                StatusCode::BAD_REQUEST,
                &ctx.catalog().text("purl-title"),
                &main,
            );
        }
    };
    let search = Search {
        name_prefix: name,
        target_contains: target,
        domain,
        include_deleted: true,
        limit: 200,
        after: None,
    };
    match state.registry.store().search(&search).await {
        Ok(found) if found.is_empty() => {
            let _ = write!(main, "<p class=\"note\">{}</p>", ctx.t("purl-no-results"));
        }
        Ok(found) => {
            let _ = write!(
                main,
                "<table class=\"records\"><thead><tr><th>{}</th><th>{}</th><th>{}</th><th>{}</th></tr></thead><tbody>",
                ctx.t("purl-name"),
                ctx.t("purl-answers"),
                ctx.t("purl-version"),
                ctx.t("purl-last-change"),
            );
            for stored in &found {
                let view = RecordView::of(stored);
                let _ = write!(
                    main,
                    "<tr><td><a href=\"/-/info{name}\"><code>{name}</code></a></td><td>{answers}</td><td>{version}</td><td>{changed} ({by})</td></tr>",
                    name = escape(view.name.as_str()),
                    answers = escape(&summary(&view.record)),
                    version = view.version,
                    changed = escape(&view.changed_at),
                    by = escape(&view.changed_by),
                );
            }
            main.push_str("</tbody></table>");
        }
        Err(e) => {
            let _ = write!(
                main,
                "<p class=\"error\" role=\"alert\">{} ({})</p>",
                ctx.t("purl-unavailable"),
                escape(&e.to_string())
            );
        }
    }
    main.push_str("</section>");
    layout(
        &ctx,
        &state,
        StatusCode::OK,
        &ctx.catalog().text("purl-title"),
        &main,
    )
}

fn login_form(ctx: &Ctx, token: &str, user: &str, error: Option<&str>) -> String {
    let error = error.map_or(String::new(), |e| {
        format!("<p class=\"error\" role=\"alert\">{}</p>", escape(e))
    });
    format!(
        "<section><h1>{title}</h1>{error}<form method=\"post\" action=\"/-/login\" class=\"options\">\
         <input type=\"hidden\" name=\"csrf\" value=\"{token}\">\
         <div class=\"row\"><label for=\"user\">{l_user}</label>\
         <input id=\"user\" name=\"user\" value=\"{user}\" autocomplete=\"username\" required></div>\
         <div class=\"row\"><label for=\"password\">{l_password}</label>\
         <input id=\"password\" name=\"password\" type=\"password\" autocomplete=\"current-password\" required></div>\
         <button type=\"submit\">{submit}</button></form></section>",
        title = ctx.t("purl-log-in"),
        token = escape(token),
        l_user = ctx.t("purl-user"),
        user = escape(user),
        l_password = ctx.t("purl-password"),
        submit = ctx.t("purl-log-in"),
    )
}

fn with_login_cookie(mut response: Response, token: &str, tls: bool) -> Response {
    response.headers_mut().append(
        header::SET_COOKIE,
        session::set_cookie(LOGIN_COOKIE, Some(token), Duration::from_secs(3600), tls),
    );
    response
}

/// `GET /-/login`: the login form, with a fresh CSRF token in a cookie and the form.
pub async fn login_page(State(state): State<PurlState>, uri: Uri, headers: HeaderMap) -> Response {
    let ctx = context(&state, &uri, &headers).await;
    let Some(token) = session::random_token() else {
        return unavailable_page(&ctx, &state);
    };
    let main = login_form(&ctx, &token, "", None);
    let response = layout(
        &ctx,
        &state,
        StatusCode::OK,
        &ctx.catalog().text("purl-log-in"),
        &main,
    );
    with_login_cookie(response, &token, state.tls)
}

/// A `503` answer gets `Retry-After`, as [`unavailable_page`]'s.
fn retry_later(mut response: Response) -> Response {
    if response.status() == StatusCode::SERVICE_UNAVAILABLE {
        response
            .headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from_static("5"));
    }
    response
}

fn unavailable_page(ctx: &Ctx, state: &PurlState) -> Response {
    let main = format!(
        "<p class=\"error\" role=\"alert\">{}</p>",
        ctx.t("purl-unavailable")
    );
    let mut response = layout(
        ctx,
        state,
        StatusCode::SERVICE_UNAVAILABLE,
        &ctx.catalog().text("purl-title"),
        &main,
    );
    response
        .headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from_static("5"));
    response
}

/// `POST /-/login`: a session for a user whose password matches.
pub async fn login(
    State(state): State<PurlState>,
    uri: Uri,
    headers: HeaderMap,
    Form(fields): Form<Fields>,
) -> Response {
    let ctx = context(&state, &uri, &headers).await;
    let sent = fields.get("csrf").map(String::as_str).unwrap_or("");
    let expected = session::cookie(&headers, LOGIN_COOKIE).unwrap_or("");
    let user = fields.get("user").map(String::as_str).unwrap_or("");
    let password = fields.get("password").map(String::as_str).unwrap_or("");
    let retry = |status: StatusCode, message: &str| {
        let token = session::random_token().unwrap_or_default();
        let main = login_form(&ctx, &token, user, Some(message));
        let response = layout(
            &ctx,
            &state,
            status,
            &ctx.catalog().text("purl-log-in"),
            &main,
        );
        with_login_cookie(response, &token, state.tls)
    };
    if expected.is_empty() || !session::same_secret(expected, sent) {
        return retry(StatusCode::FORBIDDEN, &ctx.catalog().text("purl-csrf"));
    }
    // Each try costs an Argon2id hash: a few at a time, the rest wait their turn briefly.
    let Ok(_slot) = tokio::time::timeout(Duration::from_secs(5), state.logins.acquire()).await
    else {
        return unavailable_page(&ctx, &state);
    };
    match state.registry.store().login(user, password).await {
        Ok(Some(actor)) => {
            let Some((id, _)) = state.sessions.open(&actor.user) else {
                return unavailable_page(&ctx, &state);
            };
            let mut response = see_other("/-/");
            let h = response.headers_mut();
            h.append(
                header::SET_COOKIE,
                session::set_cookie(SESSION_COOKIE, Some(&id), SESSION_TTL, state.tls),
            );
            h.append(
                header::SET_COOKIE,
                session::set_cookie(LOGIN_COOKIE, None, Duration::ZERO, state.tls),
            );
            response
        }
        Ok(None) => retry(
            StatusCode::UNAUTHORIZED,
            &ctx.catalog().text("purl-login-failed"),
        ),
        Err(_) => unavailable_page(&ctx, &state),
    }
}

/// `POST /-/logout`: ends the session.
pub async fn logout(
    State(state): State<PurlState>,
    uri: Uri,
    headers: HeaderMap,
    Form(fields): Form<Fields>,
) -> Response {
    let ctx = context(&state, &uri, &headers).await;
    if let Some((id, _)) = &ctx.session {
        if ctx.form_is_ours(&fields) {
            state.sessions.close(id);
        }
    }
    let mut response = see_other("/-/");
    response.headers_mut().append(
        header::SET_COOKIE,
        session::set_cookie(SESSION_COOKIE, None, Duration::ZERO, state.tls),
    );
    response
}

/// The record form's values, as typed.
#[derive(Clone, Debug, Default)]
struct Draft {
    name: String,
    kind: String,
    status: String,
    target: String,
    to: String,
    message: String,
    offers: String,
    fallback: String,
    max_age: String,
    reason: String,
    version: String,
    try_path: String,
    try_accept: String,
}

impl Draft {
    fn of(stored: &Stored) -> Draft {
        let mut draft = Draft {
            name: stored.record.name.to_string(),
            version: stored.version.to_string(),
            max_age: stored
                .record
                .max_age
                .map_or(String::new(), |a| a.to_string()),
            ..Draft::default()
        };
        match &stored.record.action {
            Action::Redirect { status, target } | Action::Partial { status, target } => {
                draft.kind = if matches!(stored.record.action, Action::Partial { .. }) {
                    "partial"
                } else {
                    "redirect"
                }
                .into();
                draft.status = status.to_string();
                draft.target = target.clone();
            }
            Action::Chain { to } => {
                draft.kind = "chain".into();
                draft.to = to.to_string();
            }
            Action::Negotiate {
                status,
                offers,
                fallback,
            } => {
                draft.kind = "negotiate".into();
                draft.status = status.to_string();
                draft.offers = offers
                    .iter()
                    .map(|o| match &o.language {
                        Some(lang) => format!("{} {} {}", o.media_type, lang, o.target),
                        None => format!("{} {}", o.media_type, o.target),
                    })
                    .collect::<Vec<_>>()
                    .join("\n");
                draft.fallback = fallback.clone().unwrap_or_default();
            }
            Action::NotFound { message } => {
                draft.kind = "not_found".into();
                draft.message = message.clone();
            }
            Action::Gone { message } => {
                draft.kind = "gone".into();
                draft.message = message.clone();
            }
        }
        draft
    }

    fn from_fields(fields: &Fields) -> Draft {
        let get = |k: &str| fields.get(k).cloned().unwrap_or_default();
        Draft {
            name: get("name"),
            kind: get("type"),
            status: get("status"),
            target: get("target"),
            to: get("to"),
            message: get("message"),
            offers: get("offers"),
            fallback: get("fallback"),
            max_age: get("max_age"),
            reason: get("reason"),
            version: get("version"),
            try_path: get("try_path"),
            try_accept: get("try_accept"),
        }
    }

    /// The record the form describes, or the field at fault and why.
    fn body(&self) -> Result<Body, (String, String)> {
        let status = |default: u16| -> Result<u16, (String, String)> {
            let text = self.status.trim();
            if text.is_empty() {
                return Ok(default);
            }
            text.parse()
                .map_err(|_| ("status".to_string(), format!("{text:?} is not a status")))
        };
        let action = match self.kind.as_str() {
            "redirect" => Action::Redirect {
                status: status(urlkit::purl::DEFAULT_STATUS)?,
                target: self.target.trim().to_string(),
            },
            "partial" => Action::Partial {
                status: status(urlkit::purl::DEFAULT_STATUS)?,
                target: self.target.trim().to_string(),
            },
            "chain" => Action::Chain {
                to: Name::parse(self.to.trim()).map_err(|e| ("to".to_string(), e.to_string()))?,
            },
            "negotiate" => {
                let mut offers = Vec::new();
                for (i, line) in self.offers.lines().enumerate() {
                    let words: Vec<&str> = line.split_whitespace().collect();
                    let offer = match words.as_slice() {
                        [] => continue,
                        [media, target] => Offer {
                            media_type: media.to_string(),
                            language: None,
                            target: target.to_string(),
                        },
                        [media, language, target] => Offer {
                            media_type: media.to_string(),
                            language: Some(language.to_string()),
                            target: target.to_string(),
                        },
                        _ => {
                            return Err((
                                format!("offers, line {}", i + 1),
                                "write \"media/type URL\" or \"media/type language URL\"".into(),
                            ))
                        }
                    };
                    offers.push(offer);
                }
                let fallback = self.fallback.trim();
                Action::Negotiate {
                    status: status(urlkit::purl::DEFAULT_NEGOTIATED_STATUS)?,
                    offers,
                    fallback: (!fallback.is_empty()).then(|| fallback.to_string()),
                }
            }
            "not_found" => Action::NotFound {
                message: self.message.trim().to_string(),
            },
            "gone" => Action::Gone {
                message: self.message.trim().to_string(),
            },
            other => return Err(("type".into(), format!("{other:?} is not a kind of record"))),
        };
        let max_age = match self.max_age.trim() {
            "" => None,
            text => Some(text.parse::<u32>().map_err(|_| {
                (
                    "max_age".to_string(),
                    format!("{text:?} is not a number of seconds"),
                )
            })?),
        };
        Ok(Body { action, max_age })
    }
}

fn option(value: &str, current: &str, label: &str) -> String {
    format!(
        "<option value=\"{value}\"{}>{}</option>",
        if value == current { " selected" } else { "" },
        label
    )
}

fn input_row(id: &str, label: &str, value: &str, extra: &str) -> String {
    format!(
        "<div class=\"row\"><label for=\"{id}\">{label}</label><input id=\"{id}\" name=\"{id}\" value=\"{}\"{extra}></div>",
        escape(value)
    )
}

/// The record form, with a notice above it.
fn edit_form(ctx: &Ctx, draft: &Draft, notice: &str, creating: bool) -> String {
    let mut out = String::new();
    let title = if creating {
        ctx.t("purl-nav-new")
    } else {
        format!(
            "{} <code>{}</code>",
            ctx.t("purl-edit"),
            escape(&draft.name)
        )
    };
    let _ = write!(
        out,
        "<section><h1>{title}</h1>{notice}<form method=\"post\" action=\"/-/edit\" class=\"options\">{csrf}\
         <input type=\"hidden\" name=\"version\" value=\"{version}\">",
        csrf = ctx.csrf_field(),
        version = escape(&draft.version),
    );
    if creating {
        out.push_str(&input_row(
            "name",
            &ctx.t("purl-name"),
            &draft.name,
            " required placeholder=\"/net/…\"",
        ));
    } else {
        let _ = write!(
            out,
            "<input type=\"hidden\" name=\"name\" value=\"{}\">",
            escape(&draft.name)
        );
    }
    let kind = if draft.kind.is_empty() {
        "redirect"
    } else {
        &draft.kind
    };
    let _ = write!(
        out,
        "<div class=\"row\"><label for=\"type\">{l}</label><select id=\"type\" name=\"type\">{}{}{}{}{}{}</select></div>",
        option("redirect", kind, &ctx.t("purl-type-redirect")),
        option("partial", kind, &ctx.t("purl-type-partial")),
        option("chain", kind, &ctx.t("purl-type-chain")),
        option("negotiate", kind, &ctx.t("purl-type-negotiate")),
        option("not_found", kind, &ctx.t("purl-type-not-found")),
        option("gone", kind, &ctx.t("purl-type-gone")),
        l = ctx.t("purl-type"),
    );
    out.push_str(&input_row(
        "status",
        &ctx.t("purl-status"),
        &draft.status,
        " inputmode=\"numeric\" placeholder=\"302\"",
    ));
    out.push_str(&input_row(
        "target",
        &ctx.t("purl-target"),
        &draft.target,
        " placeholder=\"https://…\"",
    ));
    out.push_str(&input_row("to", &ctx.t("purl-chain-to"), &draft.to, ""));
    let _ = write!(
        out,
        "<div class=\"row\"><label for=\"offers\">{l}</label><textarea id=\"offers\" name=\"offers\" rows=\"3\">{}</textarea></div>",
        escape(&draft.offers),
        l = ctx.t("purl-offers"),
    );
    out.push_str(&input_row(
        "fallback",
        &ctx.t("purl-fallback"),
        &draft.fallback,
        "",
    ));
    out.push_str(&input_row(
        "message",
        &ctx.t("purl-message"),
        &draft.message,
        "",
    ));
    out.push_str(&input_row(
        "max_age",
        &ctx.f(
            "purl-max-age",
            &[("default", Arg::Number(u64::from(super::DEFAULT_MAX_AGE)))],
        ),
        &draft.max_age,
        " inputmode=\"numeric\"",
    ));
    out.push_str(&input_row(
        "reason",
        &ctx.t("purl-reason"),
        &draft.reason,
        "",
    ));
    let _ = write!(
        out,
        "<fieldset><legend>{legend}</legend>{path}{accept}</fieldset>\
         <div class=\"actions\"><button type=\"submit\" name=\"action\" value=\"preview\">{preview}</button> \
         <button type=\"submit\" name=\"action\" value=\"save\">{save}</button></div></form></section>",
        legend = ctx.t("purl-preview"),
        path = input_row("try_path", &ctx.t("purl-preview-path"), &draft.try_path, ""),
        accept = input_row("try_accept", &ctx.t("purl-preview-accept"), &draft.try_accept, " placeholder=\"text/html\""),
        preview = ctx.t("purl-preview"),
        save = ctx.t("purl-save"),
    );
    out
}

fn need_login(ctx: &Ctx, state: &PurlState) -> Response {
    if ctx.store_failed {
        return unavailable_page(ctx, state);
    }
    let main = format!(
        "<p class=\"error\" role=\"alert\">{} <a href=\"/-/login\">{}</a></p>",
        ctx.t("purl-need-login"),
        ctx.t("purl-log-in")
    );
    layout(
        ctx,
        state,
        StatusCode::UNAUTHORIZED,
        &ctx.catalog().text("purl-log-in"),
        &main,
    )
}

/// `GET /-/new`: the form for a new record.
pub async fn new_page(State(state): State<PurlState>, uri: Uri, headers: HeaderMap) -> Response {
    let ctx = context(&state, &uri, &headers).await;
    if ctx.actor.is_none() {
        return need_login(&ctx, &state);
    }
    let draft = Draft {
        name: query_value(uri.query(), "name").unwrap_or_default(),
        ..Draft::default()
    };
    let main = edit_form(&ctx, &draft, "", true);
    layout(
        &ctx,
        &state,
        StatusCode::OK,
        &ctx.catalog().text("purl-nav-new"),
        &main,
    )
}

/// `GET /-/edit/{name}`: the form filled with the record as it is.
pub async fn edit_page(State(state): State<PurlState>, uri: Uri, headers: HeaderMap) -> Response {
    let ctx = context(&state, &uri, &headers).await;
    if ctx.actor.is_none() {
        return need_login(&ctx, &state);
    }
    let rest = uri.path().strip_prefix("/-/edit").unwrap_or("");
    let stored = match Name::parse(rest) {
        Ok(name) => state.registry.store().get(&name).await,
        Err(e) => {
            let main = format!(
                "<p class=\"error\" role=\"alert\">{}</p>",
                escape(&e.to_string())
            );
            return layout(
                &ctx,
                &state,
                StatusCode::BAD_REQUEST,
                &ctx.catalog().text("purl-edit"),
                &main,
            );
        }
    };
    match stored {
        Ok(Some(stored)) => {
            let main = edit_form(&ctx, &Draft::of(&stored), "", false);
            layout(
                &ctx,
                &state,
                StatusCode::OK,
                &ctx.catalog().text("purl-edit"),
                &main,
            )
        }
        Ok(None) => see_other(&format!("/-/new?name={}", rest)),
        Err(_) => unavailable_page(&ctx, &state),
    }
}

/// What a request would get from `record`, in words: resolved against a table holding it
/// alone (a chain is named, not followed).
fn preview(ctx: &Ctx, name: &Name, body: Body, draft: &Draft) -> Result<String, String> {
    let record = body
        .into_record(name.clone())
        .map_err(|e| format!("{}: {}", e.field, e.message))?;
    let mut table = Table::new();
    table
        .insert(record)
        .map_err(|e| format!("{}: {}", e.field, e.message))?;
    let path = if draft.try_path.trim().is_empty() {
        name.to_string()
    } else {
        draft.try_path.trim().to_string()
    };
    let (path_only, query) = match path.split_once('?') {
        Some((p, q)) => (p.to_string(), Some(q.to_string())),
        None => (path.clone(), None),
    };
    let accept = Some(draft.try_accept.trim()).filter(|a| !a.is_empty());
    let answer = match table.resolve(&path_only, query.as_deref(), accept, None) {
        Answer::Redirect {
            status,
            location,
            vary,
            ..
        } => {
            let vary = if vary.is_empty() {
                String::new()
            } else {
                format!("\nVary: {vary}")
            };
            format!("{status}\nLocation: {location}{vary}")
        }
        Answer::Message {
            status, message, ..
        } => format!("{status}\n{message}"),
        Answer::NotAcceptable { offered, .. } => format!("406 ({})", offered.join(", ")),
        Answer::BrokenChain { message, .. } => format!("→ {message}"),
        Answer::LeavesTarget { .. } => "404".to_string(),
        Answer::NoRecord => "404".to_string(),
        Answer::BadName(e) => format!("400 {e}"),
    };
    Ok(format!(
        "<div class=\"note preview\" role=\"status\"><p>{}</p><pre>{}</pre></div>",
        ctx.f("purl-preview-result", &[("path", Arg::Text(&path))]),
        escape(&answer)
    ))
}

fn error_notice(message: &str) -> String {
    format!(
        "<div class=\"error\" role=\"alert\"><p>{}</p></div>",
        escape(message)
    )
}

/// `POST /-/edit`: previews or saves the form's record.
pub async fn edit(
    State(state): State<PurlState>,
    uri: Uri,
    headers: HeaderMap,
    Form(fields): Form<Fields>,
) -> Response {
    let ctx = context(&state, &uri, &headers).await;
    let Some(actor) = ctx.actor.clone() else {
        return need_login(&ctx, &state);
    };
    let mut draft = Draft::from_fields(&fields);
    let creating = draft.version.trim().is_empty();
    let title = ctx.catalog().text(if creating {
        "purl-nav-new"
    } else {
        "purl-edit"
    });
    let again = |draft: &Draft, notice: String, status: StatusCode| {
        let main = edit_form(&ctx, draft, &notice, creating);
        layout(&ctx, &state, status, &title, &main)
    };
    if !ctx.form_is_ours(&fields) {
        return again(
            &draft,
            error_notice(&ctx.catalog().text("purl-csrf")),
            StatusCode::FORBIDDEN,
        );
    }
    let name = match Name::parse(draft.name.trim()) {
        Ok(name) => name,
        Err(e) => {
            let notice = error_notice(&format!("{}: {e}", ctx.catalog().text("purl-name")));
            return again(&draft, notice, StatusCode::UNPROCESSABLE_ENTITY);
        }
    };
    let body = match draft.body() {
        Ok(body) => body,
        Err((field, message)) => {
            let notice = error_notice(&ctx.catalog().format(
                "purl-invalid",
                &[
                    ("field", Arg::Text(&field)),
                    ("message", Arg::Text(&message)),
                ],
            ));
            return again(&draft, notice, StatusCode::UNPROCESSABLE_ENTITY);
        }
    };
    if fields.get("action").map(String::as_str) != Some("save") {
        return match preview(&ctx, &name, body, &draft) {
            Ok(notice) => again(&draft, notice, StatusCode::OK),
            Err(message) => again(
                &draft,
                error_notice(&message),
                StatusCode::UNPROCESSABLE_ENTITY,
            ),
        };
    }
    let expect = match draft.version.trim().parse::<Version>() {
        Ok(v) => Expect::Version(v),
        Err(_) if creating => Expect::Absent,
        Err(_) => {
            let notice = error_notice(&ctx.catalog().text("purl-csrf"));
            return again(&draft, notice, StatusCode::BAD_REQUEST);
        }
    };
    let reason = Some(draft.reason.trim()).filter(|r| !r.is_empty());
    match state
        .registry
        .put(&actor, &name, body, expect, reason)
        .await
    {
        Ok(stored) => {
            state.metrics.wrote("put", "ok");
            see_other(&format!(
                "/-/info{}?saved={}",
                stored.record.name, stored.version
            ))
        }
        Err(e) => {
            let status = refusal_status(&e);
            state.metrics.wrote("put", super::api::outcome(&e));
            let notice = match e {
                WriteError::Stale {
                    current: Some(current),
                } => {
                    // Keep the edit; the next save replaces the version now current.
                    draft.version = current.version.to_string();
                    error_notice(&ctx.catalog().format(
                        "purl-stale",
                        &[
                            ("version", Arg::Number(current.version.unsigned_abs())),
                            ("user", Arg::Text(&current.changed_by)),
                        ],
                    ))
                }
                other => error_notice(&refusal_text(&ctx, &other)),
            };
            retry_later(again(&draft, notice, status))
        }
    }
}

fn refusal_status(error: &WriteError) -> StatusCode {
    match error {
        WriteError::Stale { .. } => StatusCode::CONFLICT,
        WriteError::Forbidden { .. } => StatusCode::FORBIDDEN,
        WriteError::Invalid(_) => StatusCode::UNPROCESSABLE_ENTITY,
        WriteError::NotFound => StatusCode::NOT_FOUND,
        WriteError::Store(_) => StatusCode::SERVICE_UNAVAILABLE,
    }
}

fn refusal_text(ctx: &Ctx, error: &WriteError) -> String {
    let catalog = ctx.catalog();
    match error {
        WriteError::Stale {
            current: Some(current),
        } => catalog.format(
            "purl-stale",
            &[
                ("version", Arg::Number(current.version.unsigned_abs())),
                ("user", Arg::Text(&current.changed_by)),
            ],
        ),
        // Nothing there any more: the form's record was deleted meanwhile.
        WriteError::Stale { current: None } => catalog.text("purl-no-results"),
        WriteError::Forbidden { domain: Some(d) } => {
            catalog.format("purl-forbidden", &[("domain", Arg::Text(d.as_str()))])
        }
        WriteError::Forbidden { domain: None } => catalog.text("purl-forbidden-nodomain"),
        WriteError::Invalid(e) => catalog.format(
            "purl-invalid",
            &[
                ("field", Arg::Text(&e.field)),
                ("message", Arg::Text(&e.message)),
            ],
        ),
        WriteError::NotFound => catalog.text("purl-no-results"),
        WriteError::Store(_) => catalog.text("purl-unavailable"),
    }
}

fn kind_text(ctx: &Ctx, kind: EventKind) -> String {
    ctx.catalog().text(match kind {
        EventKind::Create => "purl-kind-create",
        EventKind::Update => "purl-kind-update",
        EventKind::Delete => "purl-kind-delete",
        EventKind::Restore => "purl-kind-restore",
    })
}

/// The fields of a body, flattened to `field: value` pairs, for a diff.
fn fields_of(body: &Body) -> Vec<(String, String)> {
    let value = serde_json::to_value(body).unwrap_or_default();
    let mut out = Vec::new();
    if let serde_json::Value::Object(map) = value {
        for (key, value) in map {
            let text = match value {
                serde_json::Value::String(s) => s,
                other => other.to_string(),
            };
            out.push((key, text));
        }
    }
    out
}

/// What changed between two versions, as a list of `field: before → after`.
fn diff(before: Option<&Body>, after: &Body) -> String {
    let before = before.map(fields_of).unwrap_or_default();
    let after = fields_of(after);
    let mut out = String::from("<ul class=\"diff\">");
    for (key, value) in &after {
        match before.iter().find(|(k, _)| k == key) {
            Some((_, old)) if old == value => {}
            Some((_, old)) => {
                let _ = write!(
                    out,
                    "<li><code>{}</code>: <del>{}</del> → <ins>{}</ins></li>",
                    escape(key),
                    escape(old),
                    escape(value)
                );
            }
            None => {
                let _ = write!(
                    out,
                    "<li><code>{}</code>: <ins>{}</ins></li>",
                    escape(key),
                    escape(value)
                );
            }
        }
    }
    for (key, old) in &before {
        if !after.iter().any(|(k, _)| k == key) {
            let _ = write!(
                out,
                "<li><code>{}</code>: <del>{}</del></li>",
                escape(key),
                escape(old)
            );
        }
    }
    out.push_str("</ul>");
    out
}

/// The info view as a page: the record, its history with what each change changed, and
/// (for its maintainers) edit, restore and delete.
pub fn info_page(
    ctx: &Ctx,
    state: &PurlState,
    stored: &Stored,
    history: &[Event],
    resolutions: u64,
    checks: &[super::checks::CheckView],
    saved: Option<&str>,
) -> Response {
    let view = RecordView::of(stored);
    let name = escape(view.name.as_str());
    let may_write = ctx
        .actor
        .as_ref()
        .is_some_and(|a| a.may_write(&stored.record.name, stored.domain.as_ref()));
    let mut main = String::new();
    let _ = write!(main, "<section><h1><code>{name}</code></h1>");
    if let Some(version) = saved {
        let _ = write!(
            main,
            "<p class=\"note\" role=\"status\">{}</p>",
            ctx.f("purl-saved", &[("version", Arg::Text(version))])
        );
    }
    if stored.deleted {
        let _ = write!(
            main,
            "<p class=\"note\"><strong>{}</strong></p>",
            ctx.t("purl-deleted")
        );
    }
    let _ = write!(
        main,
        "<dl class=\"record\"><dt>{l_answers}</dt><dd><code>{answers}</code></dd>\
         <dt>{l_domain}</dt><dd>{domain}</dd><dt>{l_version}</dt><dd>{version}</dd>\
         <dt>{l_change}</dt><dd>{changed} ({by})</dd><dt>{l_res}</dt><dd>{resolutions}</dd></dl>",
        l_answers = ctx.t("purl-answers"),
        answers = escape(&summary(&view.record)),
        l_domain = ctx.t("purl-domain"),
        domain = view.domain.as_ref().map_or("—".to_string(), |d| format!(
            "<code>{}</code>",
            escape(d.as_str())
        )),
        l_version = ctx.t("purl-version"),
        version = view.version,
        l_change = ctx.t("purl-last-change"),
        changed = escape(&view.changed_at),
        by = escape(&view.changed_by),
        l_res = ctx.t("purl-resolutions"),
    );
    for warning in &view.warnings {
        let _ = write!(main, "<p class=\"warnings\">{}</p>", escape(warning));
    }
    if let Some(archived) = super::checks::archived_view(state, stored) {
        let _ = write!(
            main,
            "<p class=\"note archived\">{} <a href=\"{url}\"><code>{url}</code></a></p>",
            ctx.f("purl-archived", &[("since", Arg::Text(&archived.since))]),
            url = escape(&archived.location),
        );
    }
    if !checks.is_empty() {
        let _ = write!(
            main,
            "<h2>{}</h2><ul class=\"checks\">",
            ctx.t("purl-last-check")
        );
        for check in checks {
            let _ = write!(
                main,
                "<li><code>{target}</code>: <strong>{kind}</strong>{status} — {at}{suggestion}</li>",
                target = escape(&check.target),
                kind = escape(check.kind.label()),
                status = check.status.map_or(String::new(), |s| format!(" ({s})")),
                at = escape(&check.checked_at),
                suggestion = check.suggestion.as_ref().map_or(String::new(), |s| format!(
                    " → <code>{}</code>",
                    escape(s)
                )),
            );
        }
        main.push_str("</ul>");
    }
    if may_write {
        let _ = write!(
            main,
            "<div class=\"actions\"><a href=\"/-/edit{name}\">{edit}</a></div>",
            edit = ctx.t("purl-edit"),
        );
        if !stored.deleted {
            let _ = write!(
                main,
                "<details class=\"options-box\"><summary>{delete}…</summary>\
                 <form method=\"post\" action=\"/-/delete\" class=\"options\">{csrf}\
                 <input type=\"hidden\" name=\"name\" value=\"{name}\">\
                 <input type=\"hidden\" name=\"expect\" value=\"{version}\">{message}{reason}\
                 <button type=\"submit\">{delete}</button></form></details>",
                csrf = ctx.csrf_field(),
                version = view.version,
                message = input_row("message", &ctx.t("purl-message"), "", ""),
                reason = input_row("reason", &ctx.t("purl-reason"), "", ""),
                delete = ctx.t("purl-delete"),
            );
        }
    }
    let _ = write!(
        main,
        "<h2>{}</h2><ol class=\"history\">",
        ctx.t("purl-history")
    );
    for event in history {
        let _ = write!(
            main,
            "<li><p>{head} — {at}{token}{reason}</p>{diff}",
            head = ctx.f(
                "purl-event",
                &[
                    ("version", Arg::Number(event.version.unsigned_abs())),
                    ("kind", Arg::Text(&kind_text(ctx, event.kind))),
                    ("user", Arg::Text(&event.user)),
                ]
            ),
            at = escape(&super::api::rfc3339(event.at)),
            token = event
                .token
                .as_ref()
                .map_or(String::new(), |t| format!(" (<code>{}</code>)", escape(t))),
            reason = event
                .reason
                .as_ref()
                .map_or(String::new(), |r| format!(": {}", escape(r))),
            diff = diff(event.before.as_ref(), &event.after),
        );
        if may_write && event.version != stored.version {
            let _ = write!(
                main,
                "<form method=\"post\" action=\"/-/restore\">{csrf}\
                 <input type=\"hidden\" name=\"name\" value=\"{name}\">\
                 <input type=\"hidden\" name=\"version\" value=\"{v}\">\
                 <input type=\"hidden\" name=\"expect\" value=\"{current}\">\
                 <button type=\"submit\">{restore}</button></form>",
                csrf = ctx.csrf_field(),
                v = event.version,
                current = stored.version,
                restore = ctx.f(
                    "purl-restore",
                    &[("version", Arg::Number(event.version.unsigned_abs()))]
                ),
            );
        }
        main.push_str("</li>");
    }
    main.push_str("</ol></section>");
    layout(
        ctx,
        state,
        StatusCode::OK,
        stored.record.name.as_str(),
        &main,
    )
}

/// `GET /-/checks?domain=…`: the broken and moved targets of each domain (or of the one
/// asked for), newest first, with what each answered; a moved one's new place can be
/// accepted by the domain's maintainers in one step.
pub async fn checks_page(
    State(state): State<PurlState>,
    uri: Uri,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
) -> Response {
    let ctx = context(&state, &uri, &headers).await;
    let store = state.registry.store();
    let title = ctx.catalog().text("purl-checks-title");
    let mut main = format!("<section><h1>{}</h1>", escape(&title));
    let chosen = query_value(query.as_deref(), "domain");
    let domains = match (
        chosen.as_deref().map(Name::parse).transpose(),
        store.domains().await,
    ) {
        (Err(e), _) => {
            let _ = write!(
                main,
                "<p class=\"error\" role=\"alert\">{}: {}</p></section>",
                ctx.t("purl-domain"),
                escape(&e.to_string())
            );
            return layout(&ctx, &state, StatusCode::BAD_REQUEST, &title, &main);
        }
        (_, Err(_)) => {
            let _ = write!(
                main,
                "<p class=\"error\" role=\"alert\">{}</p></section>",
                ctx.t("purl-unavailable")
            );
            return layout(&ctx, &state, StatusCode::SERVICE_UNAVAILABLE, &title, &main);
        }
        (Ok(Some(one)), Ok(_)) => vec![one],
        (Ok(None), Ok(all)) => all.into_iter().map(|d| d.prefix).collect(),
    };
    let mut any = false;
    for domain in &domains {
        let Ok(checks) = store
            .latest_checks_in(Some(domain), crate::store::CheckFilter::All)
            .await
        else {
            continue;
        };
        let shown: Vec<_> = checks
            .iter()
            .filter(|c| {
                c.outcome.kind.is_broken() || c.outcome.kind == crate::checker::OutcomeKind::Moved
            })
            .take(500)
            .collect();
        if shown.is_empty() {
            continue;
        }
        any = true;
        let may_write = ctx.actor.as_ref().is_some_and(|a| {
            shown
                .first()
                .is_some_and(|c| a.may_write(&c.name, Some(domain)))
        });
        let _ = write!(
            main,
            "<h2><code>{domain}</code></h2><table class=\"records\"><thead><tr><th>{}</th><th>{}</th><th>{}</th><th>{}</th></tr></thead><tbody>",
            ctx.t("purl-name"),
            ctx.t("purl-target"),
            ctx.t("purl-check-outcome"),
            ctx.t("purl-check-moved-to"),
            domain = escape(domain.as_str()),
        );
        for check in shown {
            let view = super::checks::CheckView::of(check);
            let accept = match (&view.suggestion, may_write) {
                (Some(_), true) => match store.get(&view.name).await {
                    Ok(Some(stored)) => format!(
                        "<form method=\"post\" action=\"/-/accept\">{csrf}\
                         <input type=\"hidden\" name=\"name\" value=\"{name}\">\
                         <input type=\"hidden\" name=\"target\" value=\"{target}\">\
                         <input type=\"hidden\" name=\"expect\" value=\"{version}\">\
                         <button type=\"submit\">{accept}</button></form>",
                        csrf = ctx.csrf_field(),
                        name = escape(view.name.as_str()),
                        target = escape(&view.target),
                        version = stored.version,
                        accept = ctx.t("purl-accept"),
                    ),
                    _ => String::new(),
                },
                _ => String::new(),
            };
            let _ = write!(
                main,
                "<tr><td><a href=\"/-/info{name}\"><code>{name}</code></a></td><td><code>{target}</code></td>\
                 <td><strong>{kind}</strong>{status} — {at}<br><small>{detail}</small></td><td>{moved}{accept}</td></tr>",
                name = escape(view.name.as_str()),
                target = escape(&view.target),
                kind = escape(view.kind.label()),
                status = view.status.map_or(String::new(), |s| format!(" ({s})")),
                at = escape(&view.checked_at),
                detail = escape(&view.detail),
                moved = view
                    .suggestion
                    .as_ref()
                    .map_or(String::new(), |s| format!("<code>{}</code>", escape(s))),
            );
        }
        main.push_str("</tbody></table>");
    }
    if !any {
        let _ = write!(main, "<p class=\"note\">{}</p>", ctx.t("purl-checks-none"));
    }
    main.push_str("</section>");
    layout(&ctx, &state, StatusCode::OK, &title, &main)
}

/// `POST /-/accept`: a moved target replaced by its new place, then the record is shown.
pub async fn accept(
    State(state): State<PurlState>,
    uri: Uri,
    headers: HeaderMap,
    Form(fields): Form<Fields>,
) -> Response {
    change(state, uri, headers, fields, "accept").await
}

fn version_field(fields: &Fields, key: &str) -> Option<Version> {
    fields.get(key).and_then(|v| v.trim().parse().ok())
}

/// `POST /-/restore`: brings back a version (a new version), then shows the record.
pub async fn restore(
    State(state): State<PurlState>,
    uri: Uri,
    headers: HeaderMap,
    Form(fields): Form<Fields>,
) -> Response {
    change(state, uri, headers, fields, "restore").await
}

/// `POST /-/delete`: makes the record a tombstone, then shows it.
pub async fn delete(
    State(state): State<PurlState>,
    uri: Uri,
    headers: HeaderMap,
    Form(fields): Form<Fields>,
) -> Response {
    change(state, uri, headers, fields, "delete").await
}

async fn change(
    state: PurlState,
    uri: Uri,
    headers: HeaderMap,
    fields: Fields,
    operation: &'static str,
) -> Response {
    let ctx = context(&state, &uri, &headers).await;
    let Some(actor) = ctx.actor.clone() else {
        return need_login(&ctx, &state);
    };
    let fail = |status: StatusCode, message: String| {
        layout(
            &ctx,
            &state,
            status,
            &ctx.catalog().text("purl-title"),
            &error_notice(&message),
        )
    };
    if !ctx.form_is_ours(&fields) {
        return fail(StatusCode::FORBIDDEN, ctx.catalog().text("purl-csrf"));
    }
    let name = match Name::parse(fields.get("name").map(String::as_str).unwrap_or("")) {
        Ok(name) => name,
        Err(e) => return fail(StatusCode::BAD_REQUEST, e.to_string()),
    };
    let Some(expect) = version_field(&fields, "expect").map(Expect::Version) else {
        return fail(StatusCode::BAD_REQUEST, ctx.catalog().text("purl-csrf"));
    };
    let text = |key: &str| fields.get(key).map(|v| v.trim()).filter(|v| !v.is_empty());
    let result = match operation {
        "accept" => {
            match super::checks::accept(&state.registry, &actor, &name, text("target"), expect)
                .await
            {
                Ok(stored) => Ok(stored),
                Err(super::checks::AcceptError::Write(e)) => Err(e),
                Err(super::checks::AcceptError::NoSuggestion(_)) => {
                    return fail(
                        StatusCode::CONFLICT,
                        ctx.catalog().text("purl-no-suggestion"),
                    )
                }
            }
        }
        "restore" => {
            let Some(version) = version_field(&fields, "version") else {
                return fail(StatusCode::BAD_REQUEST, ctx.catalog().text("purl-csrf"));
            };
            state
                .registry
                .restore(&actor, &name, version, expect, text("reason"))
                .await
        }
        _ => {
            state
                .registry
                .delete(&actor, &name, expect, text("message"), text("reason"))
                .await
        }
    };
    // An accepted suggestion is a change of the record, counted as one.
    let operation = if operation == "accept" {
        "put"
    } else {
        operation
    };
    match result {
        Ok(stored) => {
            state.metrics.wrote(operation, "ok");
            see_other(&format!(
                "/-/info{}?saved={}",
                stored.record.name, stored.version
            ))
        }
        Err(e) => {
            let status = refusal_status(&e);
            state.metrics.wrote(operation, super::api::outcome(&e));
            retry_later(fail(status, refusal_text(&ctx, &e)))
        }
    }
}
