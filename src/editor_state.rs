//! The request editor's state: the server it talks to and over which
//! transport, the text being written with what the core says about it
//! (lint, named version, declared capabilities, the headers a conforming
//! client would send), the exchanges sent so far and the lane they make.
//! Every change is an [`EditorAction`] applied by [`EditorState::update`];
//! all protocol decisions are the core's (`mcp_lanes_core::editor`).
//!
//! State layer: plain Rust, built and tested natively; `hooks` makes it
//! yew's reducer.

use std::cell::RefCell;
use std::rc::Rc;

use mcp_lanes_core::editor::{self, EditorSession, Exchange, Lint};
use mcp_lanes_core::protocol::ProtocolVersion;
use mcp_lanes_core::server::{presets, ServerConfig};
use mcp_lanes_core::settings::{self, Capability};
use mcp_lanes_core::share;
use mcp_lanes_core::sim::{EventKind, Timeline};
use mcp_lanes_core::transport::{HttpRequest, TransportKind};

use crate::i18n::t;
use crate::model::{Layout, Shared};

/// How many of the latest exchanges the lane draws (a long session keeps
/// every send as quick as the first).
pub const LANE_SHOWN: usize = 30;

/// Which server the editor talks to: the viewed set-up's, or a preset.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Target {
    /// The server of the set-up being viewed.
    Viewed,
    /// A server preset by id.
    Preset(&'static str),
    /// A server of the open scenario file, by its position in the file's
    /// servers (`ScenarioFile::servers`).
    File(usize),
    /// A real server over Streamable HTTP ("Your server"; its URL is the
    /// session's, [`EditorState::remote_url`]): the page fetches, the
    /// editor shows whatever came back.
    Remote,
}

/// One sent request as the core described it, with its method (for the
/// history list).
pub struct Sent {
    pub exchange: Exchange,
    pub method: String,
}

/// Everything the editor shows.
#[derive(Clone)]
pub struct EditorState {
    pub target: Target,
    pub transport: TransportKind,
    /// The simulated server and its connection state. Changed in place by
    /// `Send` and `NewConnection` (cloning it would copy every exchange).
    session: Rc<RefCell<EditorSession>>,
    /// The text being written (shared with the view, which never copies it).
    pub text: Rc<str>,
    /// Counts the times the editor replaced the text itself (a template, a
    /// toggle, Format): the text area types each replacement as one
    /// undoable edit; the person's own typing does not count.
    pub replaced: u32,
    /// What the core says about it.
    pub lint: Shared<Lint>,
    /// The arguments form of a `tools/call` of the server's tools, read
    /// from the text after every change (the text is the one source).
    pub form: Shared<Option<editor::arguments_form::Form>>,
    /// HTTP request headers (prefilled from the body).
    pub headers: Shared<Vec<(String, String)>>,
    /// The person changed a header: keep the table until "from body".
    pub headers_edited: bool,
    /// Revision and method of the template picker.
    pub revision: &'static str,
    pub method: &'static str,
    /// Every exchange, oldest first.
    pub history: Shared<Vec<Shared<Sent>>>,
    /// The exchange shown in the reply pane.
    pub shown: Option<usize>,
    /// The two replies diffed (`None`: the last two).
    pub diff: Option<(usize, usize)>,
    /// The latest [`LANE_SHOWN`] exchanges as a lane (message bodies left
    /// out: the reply pane and the history have them), drawn just after the
    /// reply.
    pub lane: Shared<Timeline>,
    /// How many exchanges the lane shows.
    lane_sent: usize,
    pub layout: Shared<Layout>,
    /// A message for the person, and whether it is an error.
    pub notice: Option<(String, bool)>,
    /// After each Send, give the request in the text the next unused id
    /// (so sending again is a new request, not a reuse).
    pub bump_id: bool,
}

/// Everything a person can do in the editor.
#[non_exhaustive]
pub enum EditorAction {
    /// Talk to another server (a fresh connection, a fresh history).
    Target(Target, Box<ServerConfig>),
    /// Switch stdio / HTTP (a fresh connection, a fresh history).
    Transport(TransportKind),
    /// The text changed (typing, pasting).
    Edit(String),
    /// Pick the revision of the templates (by name).
    Revision(String),
    /// Pick the method of the templates (by name).
    Method(String),
    /// Replace the text by the chosen template.
    Template,
    /// Declare a capability or stop declaring it.
    Capability(Capability, bool),
    /// Name another protocol version.
    Version(String),
    /// Pretty-print the text.
    Format,
    /// Change one header row (name, value).
    Header(usize, String, String),
    AddHeader,
    RemoveHeader(usize),
    /// Prefill the headers from the body again.
    HeadersFromBody,
    Send,
    /// Drop the connection (a legacy session ends).
    NewConnection,
    /// Show an exchange in the reply pane.
    Show(usize),
    /// Diff this reply (first or second side).
    Diff(bool, usize),
    /// Build the MRTR retry of an input_required reply into the editor.
    AnswerAndRetry(usize),
    /// Write the answer to a request the server sent (exchange, message).
    Answer(usize, usize),
    /// Close the notice.
    Dismiss,
    /// Bump the id after each Send, or leave it.
    BumpId(bool),
    /// A control of the arguments form changed: the argument's name and
    /// what the control holds now.
    Argument(String, String),
    /// Set every absent argument that has a default to it.
    FillDefaults,
    /// Draw the newest exchanges in the lane (dispatched right after a
    /// send has shown its reply, so the reply never waits for the lane).
    Lane,
    /// Talk to the real server at this URL ("Your server").
    Remote(String),
    /// A request to the real server is on its way (the view fetches it).
    RemoteSending,
    /// What the real server answered to this request (or why nothing came),
    /// and what to tell the reader when the browser refused to read it
    /// (CORS: the view words it, it knows the page's origin).
    RemoteAnswer(Box<HttpRequest>, editor::RemoteAnswer, Option<String>),
}

fn new_session(config: ServerConfig, transport: TransportKind) -> Rc<RefCell<EditorSession>> {
    Rc::new(RefCell::new(EditorSession::new(config, transport)))
}

impl EditorState {
    /// An editor talking to `config` (the target's server) over stdio, with
    /// a first template for the era that server speaks.
    pub fn new(target: Target, config: ServerConfig) -> EditorState {
        let (revision, method) = if config.era.speaks_modern() {
            (ProtocolVersion::MODERN, "tools/call")
        } else {
            (
                ProtocolVersion::LEGACY
                    .first()
                    .copied()
                    .unwrap_or("2025-11-25"),
                "initialize",
            )
        };
        let session = new_session(config, TransportKind::Stdio);
        let lane = session.borrow().timeline();
        let mut state = EditorState {
            target,
            transport: TransportKind::Stdio,
            session,
            text: Rc::from(""),
            replaced: 0,
            lint: Shared::new(Lint::default()),
            form: Shared::new(None),
            headers: Shared::new(Vec::new()),
            headers_edited: false,
            revision,
            method,
            history: Shared::new(Vec::new()),
            shown: None,
            diff: None,
            layout: Shared::new(Layout::new([&lane])),
            lane: Shared::new(lane),
            lane_sent: 0,
            notice: None,
            bump_id: false,
        };
        state.template();
        state
    }

    /// An editor restored from a permalink: target, transport, text and
    /// any edited headers (an unknown preset falls back to the viewed
    /// set-up's server, or deploy-console).
    pub fn from_link(
        link: &share::EditorState,
        viewed: Option<&ServerConfig>,
        files: &[(String, ServerConfig)],
    ) -> EditorState {
        let preset = presets::PRESETS
            .iter()
            .map(|(id, _)| *id)
            .find(|id| *id == link.target);
        let file = link
            .target
            .strip_prefix("file:")
            .and_then(|i| i.parse::<usize>().ok())
            .and_then(|i| Some((i, files.get(i)?.1.clone())));
        let (target, config) = match (
            preset.and_then(|id| presets::server(id).map(|c| (id, c))),
            viewed,
        ) {
            _ if file.is_some() => match file {
                Some((i, config)) => (Target::File(i), config),
                None => (Target::Preset("deploy-console"), presets::deploy_console()),
            },
            (Some((id, config)), _) => (Target::Preset(id), config),
            (None, Some(config)) => (Target::Viewed, config.clone()),
            (None, None) => (Target::Preset("deploy-console"), presets::deploy_console()),
        };
        let mut state = EditorState::new(target, config);
        state.transport = link.transport;
        let config = state.session.borrow().config().clone();
        state.connect(config);
        if !link.headers.is_empty() {
            state.headers = Shared::new(link.headers.clone());
            state.headers_edited = true;
        }
        state.set_text(link.text.clone());
        state
    }

    /// What a permalink records of this editor.
    pub fn link(&self) -> share::EditorState {
        share::EditorState {
            target: match self.target {
                Target::Viewed => "setup".into(),
                Target::Preset(id) => id.into(),
                Target::File(i) => format!("file:{i}"),
                // A link never carries where the page sent requests.
                Target::Remote => "setup".into(),
            },
            transport: self.transport,
            text: self.text.to_string(),
            headers: if self.headers_edited {
                (*self.headers).clone()
            } else {
                Vec::new()
            },
        }
    }

    /// What a permalink records besides the text, cheap to compare: the
    /// target, the transport and the edited headers (by pointer).
    pub fn link_key(&self) -> (Target, TransportKind, usize) {
        let headers = if self.headers_edited {
            Rc::as_ptr(&self.headers.0) as usize
        } else {
            0
        };
        (self.target, self.transport, headers)
    }

    /// The real server's URL, when the target is "Your server".
    pub fn remote_url(&self) -> Option<String> {
        self.session.borrow().remote_url().map(str::to_string)
    }

    /// What to fetch for the text now, for "Your server": its URL and the
    /// POST (the lint's refusal when the text cannot be sent; `None` for
    /// another target).
    pub fn remote_post(&self) -> Option<Result<(String, HttpRequest), String>> {
        let session = self.session.borrow();
        let url = session.remote_url()?.to_string();
        if let Some(refusal) = self.lint.refusal() {
            return Some(Err(crate::i18n::note(&refusal)));
        }
        let headers = self.headers_edited.then(|| self.headers.to_vec());
        let headers = headers.or_else(|| Some(self.headers.to_vec()).filter(|h| !h.is_empty()));
        Some(Ok((url, session.remote_request(&self.text, headers))))
    }

    /// The label of the server talked to.
    pub fn server_label(&self) -> String {
        let session = self.session.borrow();
        match session.remote_url() {
            Some(url) => url.to_string(),
            None => session.config().label(),
        }
    }

    /// Whether the server talked to is `config` as far as a lane's
    /// settings can change it (preset, era, versions, capability check).
    pub fn talks_to(&self, config: &ServerConfig) -> bool {
        let session = self.session.borrow();
        let c = session.config();
        c.preset == config.preset
            && c.era == config.era
            && c.modern_versions == config.modern_versions
            && c.legacy_versions == config.legacy_versions
            && c.checks_capability_before_work == config.checks_capability_before_work
    }

    /// The legacy HTTP session the next request joins, if any.
    pub fn http_session(&self) -> Option<String> {
        self.session.borrow().http_session().map(str::to_string)
    }

    /// Whether the text is too large for the editor to send or keep in a
    /// permalink (the view then stops highlighting it, and says so).
    pub fn too_large(&self) -> bool {
        self.text.len() > editor::MAX_REQUEST_BYTES
    }

    /// The text changed: what the core says about it now.
    fn set_text(&mut self, text: String) {
        let lint = self.session.borrow().lint(&text);
        // Headers follow the body while it is JSON (a typo keeps the last ones).
        if self.transport == TransportKind::Http
            && !self.headers_edited
            && lint.too_large.is_none()
            && lint.parse.is_none()
        {
            self.headers = Shared::new(editor::headers_for(&text));
        }
        self.lint = Shared::new(lint);
        self.form = Shared::new(self.session.borrow().arguments_form(&text));
        self.text = text.into();
    }

    /// The editor replaces the text itself (typed into the text area as one
    /// edit, so Ctrl+Z brings the old text back).
    fn replace_text(&mut self, text: String) {
        if *self.text != *text {
            self.replaced = self.replaced.wrapping_add(1);
            self.set_text(text);
        }
    }

    /// Replaces the text by the result of a core edit, or says why not.
    fn edit_with(&mut self, result: Result<String, String>) {
        match result {
            Ok(text) => {
                self.notice = None;
                self.replace_text(text);
            }
            Err(why) => self.notice = Some((why, true)),
        }
    }

    /// The chosen template, fitted to the server talked to (its tools) and
    /// with an id not used yet on this connection.
    fn template(&mut self) {
        let text = {
            let session = self.session.borrow();
            editor::template_for_server(
                self.revision,
                self.method,
                session.config(),
                session.fresh_id(),
            )
        };
        if let Some(text) = text {
            let had_text = !self.text.trim().is_empty() && *self.text != *text;
            self.replace_text(text);
            if had_text {
                self.notice = Some((
                    format!(
                        "The text is now the {} template; Undo (Ctrl+Z in the text) brings the previous text back.",
                        self.method
                    ),
                    false,
                ));
            }
        }
    }

    fn reset_lane(&mut self) {
        let lane = self.session.borrow().timeline();
        self.layout = Shared::new(Layout::new([&lane]));
        self.lane = Shared::new(lane);
        self.lane_sent = 0;
        self.history = Shared::new(Vec::new());
        self.shown = None;
        self.diff = None;
    }

    fn connect(&mut self, config: ServerConfig) {
        self.session = new_session(config, self.transport);
        self.reset_lane();
        let text = self.text.to_string();
        self.set_text(text);
    }

    /// Appends the events of the exchanges the lane does not show yet,
    /// without their message bodies.
    fn extend_lane(&mut self) {
        let first = self.lane_sent;
        if first >= self.history.len() {
            return;
        }
        self.lane_sent = self.history.len();
        let part = self
            .session
            .borrow()
            .timeline_from(first, self.lane.events.len());
        let mut lane = (*self.lane).clone();
        lane.summary = part.summary;
        lane.events.extend(part.events.into_iter().map(|mut e| {
            if let EventKind::Message(m) = &mut e.kind {
                m.wire = String::new();
                m.json = None;
            }
            e
        }));
        // Exchanges are 1 s apart: keep the latest LANE_SHOWN, renumbered.
        let from = self.lane_sent.saturating_sub(LANE_SHOWN) as u64 * 1000;
        lane.events.retain(|e| e.at_ms >= from);
        for (i, e) in lane.events.iter_mut().enumerate() {
            e.index = i;
        }
        self.layout = Shared::new(Layout::new([&lane]));
        self.lane = Shared::new(lane);
    }

    fn send(&mut self) {
        if let Some(refusal) = self.lint.refusal() {
            self.notice = Some((crate::i18n::note(&refusal), true));
            return;
        }
        // "Your server" is sent by the view (fetch), never to a simulation.
        if self.session.borrow().remote_url().is_some() {
            return;
        }
        let headers = (self.transport == TransportKind::Http).then(|| self.headers.to_vec());
        let exchange = self.session.borrow_mut().send(&self.text, headers);
        let first = self.history.len();
        let method = self
            .lint
            .method
            .clone()
            .unwrap_or_else(|| "(not a request)".to_string());
        let mut history = self.history.to_vec();
        history.push(Shared::new(Sent { exchange, method }));
        self.history = Shared::new(history);
        self.shown = Some(first);
        self.notice = None;
        self.after_send();
    }

    /// After a send: the next unused id in the text when asked for, else
    /// the lint again (the id is used now: the same text again gets a
    /// warning).
    fn after_send(&mut self) {
        if self.bump_id {
            let fresh = self.session.borrow().fresh_id();
            if let Some(text) = editor::with_id(&self.text, fresh) {
                self.replace_text(text);
                return;
            }
        }
        self.lint = Shared::new(self.session.borrow().lint(&self.text));
    }

    /// Writes what a form control holds into the text's arguments, or
    /// says why it cannot.
    fn argument(&mut self, name: &str, input: &str) {
        use editor::arguments_form::{set_argument, value_of, FormError};
        let Some(field) = self
            .form
            .as_ref()
            .and_then(|f| f.fields.iter().find(|f| f.name == name))
        else {
            return;
        };
        match value_of(&field.control, input).and_then(|v| set_argument(&self.text, name, v)) {
            Ok(text) => {
                self.notice = None;
                self.replace_text(text);
            }
            Err(why) => {
                let key = match why {
                    FormError::NotANumber => "editor.form_not_number",
                    FormError::NotAnInteger => "editor.form_not_integer",
                    FormError::InputNotJson => "editor.form_not_json",
                    _ => "editor.form_text_not_json",
                };
                self.notice = Some((crate::i18n::tf(key, &[("name", name)]), true));
            }
        }
    }

    /// The two replies diffed: the chosen ones, else the last two.
    pub fn diff_pair(&self) -> (usize, usize) {
        let len = self.history.len();
        self.diff
            .filter(|(a, b)| *a < len && *b < len)
            .unwrap_or((len.saturating_sub(2), len.saturating_sub(1)))
    }

    fn sent(&self, index: usize) -> Option<&Exchange> {
        self.history.get(index).map(|s| &s.exchange)
    }
}

impl EditorState {
    /// Applies an action (yew's `Reducible` for `EditorState`, in `hooks`,
    /// calls this on a copy).
    pub fn update(&mut self, action: EditorAction) {
        let next = self;
        match action {
            EditorAction::Target(target, config) => {
                next.target = target;
                next.connect(*config);
            }
            // A real server is reached over Streamable HTTP only.
            EditorAction::Transport(_) if next.target == Target::Remote => {}
            EditorAction::Transport(kind) => {
                next.transport = kind;
                let config = next.session.borrow().config().clone();
                next.connect(config);
            }
            EditorAction::Edit(text) => {
                if *next.text != *text {
                    next.set_text(text);
                }
            }
            EditorAction::Revision(name) => {
                if let Some(r) = settings::known_versions().into_iter().find(|r| *r == name) {
                    next.revision = r;
                    let methods = editor::methods(r);
                    if !methods.contains(&next.method) {
                        next.method = methods.first().copied().unwrap_or("");
                    }
                }
            }
            EditorAction::Method(name) => {
                if let Some(m) = editor::methods(next.revision).iter().find(|m| **m == name) {
                    next.method = m;
                }
            }
            EditorAction::Template => {
                next.notice = None;
                next.template();
            }
            EditorAction::Capability(cap, on) => {
                let result = editor::set_capability(&next.text, cap, on);
                next.edit_with(result);
            }
            EditorAction::Version(version) => {
                let result = editor::set_version(&next.text, &version);
                next.edit_with(result);
            }
            EditorAction::Format => {
                let result = if next.too_large() {
                    Err(format!(
                        "Format skipped: the text is {} bytes, over the {} bytes (1 MiB) the editor sends at all.",
                        next.text.len(),
                        editor::MAX_REQUEST_BYTES
                    ))
                } else {
                    Ok(())
                };
                let result = result
                    .and_then(|()| {
                        serde_json::from_str::<serde_json::Value>(&next.text)
                            .map_err(|e| format!("Format needs JSON: {e}"))
                    })
                    .and_then(|v| serde_json::to_string_pretty(&v).map_err(|e| e.to_string()));
                next.edit_with(result);
            }
            EditorAction::Header(row, name, value) => {
                let mut headers = next.headers.to_vec();
                if let Some(h) = headers.get_mut(row) {
                    *h = (name, value);
                }
                next.headers = Shared::new(headers);
                next.headers_edited = true;
            }
            EditorAction::AddHeader => {
                let mut headers = next.headers.to_vec();
                headers.push((String::new(), String::new()));
                next.headers = Shared::new(headers);
                next.headers_edited = true;
            }
            EditorAction::RemoveHeader(row) => {
                let mut headers = next.headers.to_vec();
                if row < headers.len() {
                    headers.remove(row);
                }
                next.headers = Shared::new(headers);
                next.headers_edited = true;
            }
            EditorAction::HeadersFromBody => {
                next.headers_edited = false;
                let text = next.text.to_string();
                next.set_text(text);
            }
            EditorAction::Send => next.send(),
            EditorAction::NewConnection => {
                next.session.borrow_mut().new_connection();
                let text = next.text.to_string();
                next.set_text(text);
                next.notice = Some((
                    "New connection: whatever session the server kept for the old one is gone."
                        .to_string(),
                    false,
                ));
            }
            EditorAction::Show(index) => {
                if index < next.history.len() {
                    next.shown = Some(index);
                }
            }
            EditorAction::Diff(first, index) => {
                let (a, b) = next.diff_pair();
                next.diff = Some(if first { (index, b) } else { (a, index) });
            }
            EditorAction::AnswerAndRetry(index) => {
                let result = match next.sent(index) {
                    Some(ex) => {
                        let reply = ex.reply_json.clone().unwrap_or_default();
                        let new_id = reply
                            .get("id")
                            .and_then(serde_json::Value::as_i64)
                            .map_or(next.history.len() as i64 + 1, |id| id.saturating_add(1));
                        editor::answer_and_retry(&ex.sent, &reply, new_id)
                    }
                    None => Err("there is no such reply".to_string()),
                };
                next.edit_with(result);
            }
            EditorAction::Answer(index, message) => {
                let answer = next
                    .sent(index)
                    .and_then(|ex| ex.side_effects.get(message))
                    .and_then(|m| m.message.as_ref())
                    .and_then(editor::answer_server_request)
                    .ok_or_else(|| "that message is not a request to answer".to_string());
                next.edit_with(answer);
            }
            EditorAction::Dismiss => next.notice = None,
            EditorAction::BumpId(on) => next.bump_id = on,
            EditorAction::Argument(name, input) => next.argument(&name, &input),
            EditorAction::FillDefaults => {
                let filled = next
                    .form
                    .as_ref()
                    .and_then(|form| editor::arguments_form::fill_defaults(&next.text, form));
                if let Some(text) = filled {
                    next.replace_text(text);
                }
            }
            EditorAction::Lane => next.extend_lane(),
            EditorAction::Remote(url) => {
                next.target = Target::Remote;
                next.transport = TransportKind::Http;
                let config = next.session.borrow().config().clone();
                next.session = Rc::new(RefCell::new(EditorSession::remote(url.trim(), config)));
                next.reset_lane();
                next.headers_edited = false;
                let text = next.text.to_string();
                next.set_text(text);
                next.notice = None;
            }
            EditorAction::RemoteSending => {
                next.notice = Some((t("editor.remote_sending"), false));
            }
            EditorAction::RemoteAnswer(request, answer, blocked) => {
                let exchange = next.session.borrow_mut().record_remote(&request, answer);
                let first = next.history.len();
                let method = next
                    .lint
                    .method
                    .clone()
                    .unwrap_or_else(|| "(not a request)".to_string());
                let mut history = next.history.to_vec();
                history.push(Shared::new(Sent { exchange, method }));
                next.history = Shared::new(history);
                next.shown = Some(first);
                next.notice = blocked.map(|why| (why, true));
                next.after_send();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn your_server_is_fetched_by_the_view_and_its_answer_recorded() {
        let mut state =
            EditorState::new(Target::Preset("deploy-console"), presets::deploy_console());
        assert!(state.remote_post().is_none());
        state.update(EditorAction::Remote(" http://127.0.0.1:9/mcp ".into()));
        assert_eq!(state.target, Target::Remote);
        assert_eq!(state.transport, TransportKind::Http);
        assert_eq!(state.server_label(), "http://127.0.0.1:9/mcp");
        // Send never reaches a simulation: the view fetches.
        state.update(EditorAction::Send);
        assert!(state.history.is_empty());
        state.update(EditorAction::Transport(TransportKind::Stdio));
        assert_eq!(state.transport, TransportKind::Http);
        let Some(Ok((url, request))) = state.remote_post() else {
            panic!("a template is sendable");
        };
        assert_eq!(url, "http://127.0.0.1:9/mcp");
        let body = r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}"#.to_string();
        state.update(EditorAction::RemoteAnswer(
            Box::new(request.clone()),
            Ok((200, Vec::new(), body)),
            None,
        ));
        assert_eq!(state.history.len(), 1);
        assert!(state.notice.is_none());
        state.update(EditorAction::RemoteAnswer(
            Box::new(request),
            Err("TypeError: Failed to fetch".into()),
            Some("blocked: CORS".into()),
        ));
        assert_eq!(state.history.len(), 2);
        assert_eq!(state.notice, Some(("blocked: CORS".to_string(), true)));
        assert_eq!(state.link().target, "setup");
    }
}
