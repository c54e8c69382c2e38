//! One HTTP request outside a flow (`check`'s authorization probes: the
//! MCP endpoint without and with tokens, the metadata documents), through
//! the same HTTP stack and limits as the flows: a deadline on every wait,
//! a body over [`Limits::max_message`] refused, bytes that are not HTTP
//! reported as such.

use http_body_util::BodyExt;
use mcp_lanes_core::check::protection::{Answer, Fetch};
use mcp_lanes_core::transport::HttpRequest;
use tokio::time::{timeout_at, Instant};

use super::http::{failure, headers_of, HttpWire, Stop};
use super::{Endpoint, Limits, OpenError};

/// Sends `method` to `url` with `headers` and `body`; the answer (body cut
/// at nothing: over the limit is an error), or why there is none.
pub fn request(
    url: &str,
    method: &str,
    headers: Vec<(String, String)>,
    body: String,
    limits: Limits,
) -> Fetch {
    let answer = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the I/O runtime: {e}"))
        .and_then(|runtime| runtime.block_on(send(url, method, headers, body, limits)));
    Fetch {
        url: url.to_string(),
        answer,
    }
}

async fn send(
    url: &str,
    method: &str,
    headers: Vec<(String, String)>,
    body: String,
    limits: Limits,
) -> Result<Answer, String> {
    let endpoint = Endpoint::parse(url).map_err(|e| e.to_string())?;
    let mut wire = HttpWire::open(endpoint.clone(), limits)
        .await
        .map_err(|e| match e {
            OpenError::Usage(k) => k.to_string(),
            OpenError::Unreachable(why) => why,
        })?;
    let request = HttpRequest {
        method: method.to_string(),
        path: endpoint.path.clone(),
        headers,
        body,
    };
    let deadline = Instant::now() + limits.exchange;
    let late = || format!("no answer within {} ms", limits.exchange.as_millis());
    let (response, _sender) = match wire.post(&request, deadline).await {
        Ok(found) => found,
        Err(Stop::Deadline) => return Err(late()),
        Err(Stop::Failed(f)) => return Err(f.describe()),
    };
    let status = response.status().as_u16();
    let headers = headers_of(&response);
    let mut incoming = response.into_body();
    let mut bytes: Vec<u8> = Vec::new();
    loop {
        match timeout_at(deadline, incoming.frame()).await {
            Err(_) => return Err(late()),
            Ok(None) => break,
            Ok(Some(Err(e))) => return Err(failure(&e).describe()),
            Ok(Some(Ok(frame))) => {
                if let Some(data) = frame.data_ref() {
                    if bytes.len() + data.len() > limits.max_message {
                        return Err(format!(
                            "HTTP {status}, with a body larger than the {}-byte limit",
                            limits.max_message
                        ));
                    }
                    bytes.extend_from_slice(data);
                }
            }
        }
    }
    Ok(Answer {
        status,
        headers,
        body: String::from_utf8_lossy(&bytes).into_owned(),
    })
}
