//! Every request's way in, in front of the router as one plain service (no
//! boxed layer per route): counted and logged, refused if it breaks a limit,
//! its body bounded, and any error answer made `{"error": ...}`.

use std::convert::Infallible;
use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::http::Request;
use axum::response::{IntoResponse, Response};
use http_body_util::Limited;
use hyper::body::Incoming;
use tower_service::Service;

use super::error;
use super::limits;
use super::log::{Access, Line};

/// The router and what every request passes on its way to it.
#[derive(Clone)]
pub struct Front {
    router: Router,
    access: Arc<Access>,
}

impl Front {
    /// `router` behind the access log and the limits of `access`.
    pub fn new(router: Router, access: Arc<Access>) -> Front {
        Front { router, access }
    }

    /// The answer to `request`; the line is logged when it is answered, or when
    /// the connection drops the future (the client hung up).
    pub fn call(
        &self,
        request: Request<Incoming>,
    ) -> impl Future<Output = Result<Response, Infallible>> + Send + use<> {
        let mut line = Line::start(&self.access, &request);
        let routed = match limits::refusal(&request) {
            Some(refused) => Err(refused),
            // A body longer than the limit (a chunked one, announced by no
            // length) is cut where it passes it, whoever reads it. The router
            // is always ready: no `poll_ready` needed.
            None => Ok(self
                .router
                .clone()
                .call(request.map(|body| Body::new(Limited::new(body, limits::MAX_BODY))))),
        };
        async move {
            let response = match routed {
                Ok(routed) => {
                    let Ok(response) = routed.await;
                    error::as_json(response).await
                }
                Err(refused) => refused.into_response(),
            };
            line.answered(&response);
            Ok(response)
        }
    }
}
