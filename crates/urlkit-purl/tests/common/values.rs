//! Names, bodies and actors the store's tests write with.
#![allow(dead_code)]

use urlkit::purl::{Action, Name};
use urlkit_purl::model::{Actor, Body, Grant, Right};
use urlkit_purl::store::Store;

/// `text` as a name; the tests give only good ones.
pub fn name(text: &str) -> Name {
    Name::parse(text).unwrap()
}

/// A `302` to `target`.
pub fn redirect(target: &str) -> Body {
    Body {
        action: Action::Redirect {
            status: 302,
            target: target.to_string(),
        },
        max_age: None,
    }
}

/// An administrator acting without a token.
pub fn admin() -> Actor {
    Actor {
        user: "root".into(),
        token: None,
        admin: true,
        grants: vec![],
    }
}

/// Users root (administrator) and alice (password `correct horse`), the domains `/net/`
/// (alice's) and `/org/` (root's) in `store`; returns alice's token with write rights on
/// `/net/` and root's token.
pub async fn owners(store: &Store) -> (String, String) {
    store.add_user("root", None, true).await.unwrap();
    store
        .add_user("alice", Some("correct horse"), false)
        .await
        .unwrap();
    let root = store.actor("root").await.unwrap().unwrap();
    store
        .add_domain(&root, &name("/net/"), &["alice".to_string()])
        .await
        .unwrap();
    store
        .add_domain(&root, &name("/org/"), &["root".to_string()])
        .await
        .unwrap();
    let (_, net) = store
        .create_token(
            "alice",
            &[Grant {
                domain: name("/net/"),
                right: Right::Write,
            }],
            Some("tests"),
        )
        .await
        .unwrap();
    let (_, admin) = store.create_token("root", &[], None).await.unwrap();
    (net, admin)
}
