//! The server's upload parsing (`process_upload`) on arbitrary multipart bodies with a
//! fixed boundary: never panics, bad forms are 4xx errors, and a rejected upload leaves
//! nothing in the store; an accepted one is downloadable once.
#![no_main]

use axum::body::Body;
use axum::extract::{FromRequest, Multipart, Request};
use libfuzzer_sys::fuzz_target;
use std::sync::{Arc, OnceLock};
use std::time::Duration;
use urlkit_web::store::{DirStore, ResultId};
use urlkit_web::AppState;

/// Small, so the size limit is reachable from fuzz inputs.
const MAX_UPLOAD: u64 = 4096;

struct World {
    runtime: tokio::runtime::Runtime,
    state: AppState,
    dir: std::path::PathBuf,
}

fn world() -> &'static World {
    static WORLD: OnceLock<World> = OnceLock::new();
    WORLD.get_or_init(|| {
        let dir =
            std::env::temp_dir().join(format!("urlkit-fuzz-multipart-{}", std::process::id()));
        let store = DirStore::open(&dir).expect("a store directory");
        World {
            // Timers: an upload keeps a pace once its file starts.
            runtime: tokio::runtime::Builder::new_current_thread()
                .enable_time()
                .build()
                .expect("a runtime"),
            state: AppState::new(Arc::new(store), MAX_UPLOAD, Duration::from_secs(60), false),
            dir,
        }
    })
}

fuzz_target!(|data: &[u8]| {
    let world = world();
    world.runtime.block_on(async {
        let request = Request::builder()
            .method("POST")
            .uri("/api/files")
            .header("content-type", "multipart/form-data; boundary=XyZ")
            .body(Body::from(data.to_vec()))
            .expect("a request");
        let multipart = match Multipart::from_request(request, &()).await {
            Ok(m) => m,
            Err(_) => return,
        };
        let client = std::net::IpAddr::from([127, 0, 0, 1]);
        match urlkit_web::api::process_upload(&world.state, client, multipart).await {
            Ok(created) => {
                let id = ResultId::parse(&created.id).expect("an id");
                let store = world.state.store();
                let claimed = store
                    .claim(&id, Duration::from_secs(60))
                    .await
                    .expect("claim");
                let (size, _reader) = claimed.expect("a stored result");
                assert_eq!(size, created.size);
                assert!(store
                    .claim(&id, Duration::from_secs(60))
                    .await
                    .unwrap()
                    .is_none());
            }
            Err(e) => assert!(e.status.is_client_error(), "not a 4xx: {e:?}"),
        }
    });
    let left = std::fs::read_dir(&world.dir).expect("the store").count();
    assert_eq!(left, 0, "files left in the store");
});
