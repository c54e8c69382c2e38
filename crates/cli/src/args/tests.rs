//! The grammar's tests: valid command lines and the usage errors of bad ones.

use super::*;

fn p(args: &[&str]) -> Result<Command, UsageError> {
    parse(args.iter().copied())
}

/// Command lines that are usage errors (both tests below read them).
const BAD: &[&[&str]] = &[
    &[],
    &["dance"],
    &["list", "--nope"],
    &["list", "--lang"],
    &["list", "--lang", "xx"],
    &["list", "--format", "json"],
    &["list", "--quiet"],
    &["list", "extra"],
    &["run", "--scenario", "a", "--scenario", "b"],
    &["run"],
    &[
        "check",
        "--transcript",
        "f.json",
        "--url",
        "http://127.0.0.1:1/mcp",
    ],
    &["check", "--transcript", "f.json", "--flow", "meta"],
    &["run", "--scenario", "a", "--file", "f"],
    &["run", "--scenario", "a", "--format", "xml"],
    &["export"],
    &["tap"],
    &["tap", "--replay", "r.json", "--", "cat"],
    &["tap", "--har", "f.har", "--", "cat"],
    &["tap", "--live", "x", "--", "cat"],
    &["tap", "--live", "0", "--replay", "r.json"],
    &["tap", "--upstream", "http://127.0.0.1:1/mcp"],
    &[
        "tap",
        "--upstream",
        "https://example.com/mcp",
        "--port",
        "1",
    ],
    &["tap", "--upstream", "http://127.0.0.1:1/mcp", "--port", "x"],
    &[
        "tap",
        "--upstream",
        "http://127.0.0.1:1/mcp",
        "--port",
        "1",
        "--",
        "cat",
    ],
    &[
        "tap",
        "--upstream",
        "http://127.0.0.1:1/mcp",
        "--port",
        "1",
        "--allow-origin",
        "not an origin",
    ],
    &["serve"],
    &["serve", "--file", "f"],
    &["serve", "--server", "s"],
    &["serve", "--preset", "p", "--file", "f"],
    &["serve", "--preset", "p", "--port", "1"],
    &["serve", "--preset", "p", "--transport", "http"],
    &[
        "serve",
        "--preset",
        "p",
        "--transport",
        "http",
        "--port",
        "x",
    ],
    &["serve", "--preset", "p", "--transport", "ftp"],
    &[
        "serve",
        "--preset",
        "p",
        "--transport",
        "http",
        "--port",
        "0",
        "--threads",
        "0",
    ],
    &["client"],
    &["client", "a", "b"],
    &["client", "--cmd", "x", "u"],
    &["client", "--cmd", "'", "--timeout", "9"],
    &["client", "--timeout", "0", "u"],
    &["check"],
    &["check", "x"],
    &["check", "--url", "u", "--cmd", "c"],
    &["check", "--url", "u", "--format", "xml"],
    &["check", "--url", "u", "--args", "{}"],
    &["check", "--url", "u", "--tool", "t", "--args", "[]"],
    &["check", "--cmd", "'"],
    &["bridge"],
    &["bridge", "x"],
    &["bridge", "--cmd", "c"],
    &["bridge", "--cmd", "c", "--port", "x"],
    &["frobnicate"],
    &["list", "extra"],
    &["list", "--scenario", "discover"],
    &["run"],
    &["run", "--scenario"],
    &["run", "--scenario", "a", "--scenario", "b"],
    &["run", "--scenario", "a", "--format", "yaml"],
    &["serve", "--transport", "http", "--preset", "notes"],
    &[
        "serve",
        "--transport",
        "http",
        "--port",
        "70000",
        "--preset",
        "notes",
    ],
    &[
        "serve",
        "--transport",
        "http",
        "--port",
        "-1",
        "--preset",
        "notes",
    ],
    &[
        "serve",
        "--transport",
        "stdio",
        "--port",
        "1",
        "--preset",
        "notes",
    ],
    &[
        "serve",
        "--transport",
        "carrier-pigeon",
        "--preset",
        "notes",
    ],
    &["serve", "--transport", "stdio"],
    &["list", "--bogus"],
    &["list", "-x"],
    &["serve", "--preset", "notes", "--quiet"],
    &["serve", "--preset", "notes", "--auth"],
    &["list", "--threads", "2"],
    &["export", "--scenario", "a", "--quiet"],
    &[
        "serve",
        "--transport",
        "http",
        "--port",
        "0",
        "--preset",
        "notes",
        "--threads",
        "0",
    ],
    &["run", "--scenario", "a", "--file", "b.json"],
    &["run", "--file", "b.json", "--server", "s"],
    &["serve", "--file", "b.json"],
    &["serve", "--server", "s"],
    &[
        "serve", "--preset", "notes", "--file", "b.json", "--server", "s",
    ],
    &["export"],
    &["export", "--scenario", "a", "--format", "json"],
    &["export", "--scenario", "a", "--figure", "f.json"],
    &["export", "--scenario", "a", "--out", "f.html"],
    &["export", "--scenario", "a", "--document"],
    &["export", "--figure", "f.json", "--lang", "xx"],
    &["export", "--figure", "f.json", "--base", "/x/"],
    &["export", "--figure", "f.json", "--format", "json"],
    &["list", "--file", "b.json"],
    &["client"],
    &["client", "http://a", "http://b"],
    &["client", "--cmd", "x", "http://a"],
    &["client", "--cmd", "'unclosed"],
    &["client", "--timeout", "0", "http://a"],
    &["client", "--scenario", "x", "http://a"],
    &["bridge"],
    &["bridge", "--cmd", "x"],
    &["bridge", "--port", "0"],
    &["bridge", "--cmd", "x", "--port", "0", "--allow-origin", "*"],
    &[
        "bridge",
        "--cmd",
        "x",
        "--port",
        "0",
        "--allow-origin",
        "evil",
    ],
    &["bridge", "--cmd", "x", "--port", "70000"],
    &["bridge", "--cmd", "x", "--port", "0", "extra"],
    &["bridge", "--cmd", "", "--port", "0"],
    &["chek"],
    &["run", "--formt", "json"],
    &["--scenario", "discover"],
    &["completions"],
    &["completions", "tcsh"],
    &["completions", "bash", "zsh"],
    &["serve", "--lang", "zh", "--preset", "notes"],
    &["help", "chek"],
];

#[test]
fn usage_errors_are_keyed_and_said_in_the_language_asked_for() {
    let en = crate::i18n::Catalog::load("en").expect("en");
    let zh = crate::i18n::Catalog::load("zh").expect("zh");
    for args in BAD {
        let Err(err) = p(args) else {
            panic!("{args:?} parses");
        };
        for said in std::iter::once(&err.message).chain(err.tip.as_deref()) {
            assert_eq!(
                en.text(said.key, ""),
                said.template,
                "{args:?}: {} is not in en.json as the code says it",
                said.key
            );
            assert_eq!(said.say(Some(&en)), said.to_string());
            assert_ne!(said.key, "cli.usage.as_is", "{args:?}: {said}");
            assert_ne!(said.say(Some(&zh)), said.to_string(), "{args:?}");
        }
        // The report: the message, the tip, the command's usage (clap's
        // English) and where to read more, in the language.
        let report = err.report(Some(&zh));
        assert!(report.starts_with(&format!("error: {}\n", err.say(Some(&zh)))));
        assert!(report.contains("Usage: mcp-lanes "), "{args:?}: {report}");
    }
    assert_eq!(asked_lang(["run", "--lang", "zh"]).as_deref(), Some("zh"));
    assert_eq!(
        asked_lang(["run", "--lang=zh-CN"]).as_deref(),
        Some("zh-CN")
    );
    assert_eq!(asked_lang(["run", "--language"]), None);
}

#[test]
fn parses_each_command() {
    assert!(matches!(p(&["list"]), Ok(Command::List { lang: None })));
    assert_eq!(
        p(&["list", "--lang", "zh"]),
        Ok(Command::List {
            lang: Some("zh".into())
        })
    );
    assert!(p(&["list", "--lang", "xx"]).is_err());
    assert!(p(&["export", "--scenario", "discover", "--lang", "zh"]).is_err());
    assert_eq!(
        p(&["run", "--scenario", "discover"]),
        Ok(Command::Run {
            scenario: Scenario::Builtin("discover".into()),
            format: Format::Text,
            lang: None,
            keep_secrets: false,
        })
    );
    assert_eq!(
        p(&["run", "--format=json", "--scenario", "5"]),
        Ok(Command::Run {
            scenario: Scenario::Builtin("5".into()),
            format: Format::Json,
            lang: None,
            keep_secrets: false,
        })
    );
    assert_eq!(
        p(&["serve", "--transport", "stdio", "--preset", "notes"]),
        Ok(Command::Serve {
            transport: Transport::Stdio,
            server: ServerSource::Preset("notes".into())
        })
    );
    assert_eq!(
        p(&["serve", "--preset", "notes"]),
        Ok(Command::Serve {
            transport: Transport::Stdio,
            server: ServerSource::Preset("notes".into())
        })
    );
    assert_eq!(
        p(&[
            "serve",
            "--transport",
            "http",
            "--port",
            "0",
            "--preset",
            "x"
        ]),
        Ok(Command::Serve {
            transport: Transport::Http(HttpOptions::on_port(0)),
            server: ServerSource::Preset("x".into())
        })
    );
    assert_eq!(
        p(&[
            "serve",
            "--transport",
            "http",
            "--port",
            "0",
            "--preset",
            "x",
            "--max-connections",
            "20000",
            "--threads",
            "1",
            "--session-idle",
            "60",
            "--max-sessions",
            "5",
            "--keep-alive",
            "2",
            "--quiet",
            "--auth",
        ]),
        Ok(Command::Serve {
            transport: Transport::Http(HttpOptions {
                port: 0,
                max_connections: Some(20_000),
                threads: Some(1),
                session_idle_secs: 60,
                max_sessions: 5,
                keep_alive_secs: 2,
                quiet: true,
                auth: true,
            }),
            server: ServerSource::Preset("x".into())
        })
    );
    assert_eq!(
        p(&["run", "--file", "lesson.json", "--format", "json"]),
        Ok(Command::Run {
            scenario: Scenario::File("lesson.json".into()),
            format: Format::Json,
            lang: None,
            keep_secrets: false,
        })
    );
    assert_eq!(
        p(&["serve", "--file", "lesson.json", "--server", "weather"]),
        Ok(Command::Serve {
            transport: Transport::Stdio,
            server: ServerSource::File {
                path: "lesson.json".into(),
                server: "weather".into()
            }
        })
    );
    assert_eq!(
        p(&["export", "--scenario", "discover"]),
        Ok(Command::Export {
            scenario: "discover".into()
        })
    );
    assert_eq!(
        p(&["export", "--figure", "lesson.json"]),
        Ok(Command::Figure(FigureArgs {
            path: "lesson.json".into(),
            lang: "en".into(),
            document: None,
            out: None,
        }))
    );
    assert_eq!(
        p(&[
            "export",
            "--figure",
            "lesson.json",
            "--lang",
            "zh-CN",
            "--document",
            "--base",
            "/mcp-lanes/",
            "--out",
            "lesson.html",
        ]),
        Ok(Command::Figure(FigureArgs {
            path: "lesson.json".into(),
            lang: "zh".into(),
            document: Some("/mcp-lanes/".into()),
            out: Some("lesson.html".into()),
        }))
    );
    assert_eq!(
        p(&["export", "--figure", "lesson.json", "--document"]),
        Ok(Command::Figure(FigureArgs {
            path: "lesson.json".into(),
            lang: "en".into(),
            document: Some(String::new()),
            out: None,
        }))
    );
    assert!(matches!(p(&["--help"]), Ok(Command::Help(text)) if text.contains("Usage:")));
    assert!(
        matches!(p(&["run", "-h"]), Ok(Command::Help(text)) if text.contains("--scenario <ID>"))
    );
    assert_eq!(p(&["-V"]), Ok(Command::Version));
    // Options before the command, as the grammar before clap took them.
    assert_eq!(
        p(&["--lang", "zh", "list"]),
        Ok(Command::List {
            lang: Some("zh".into())
        })
    );
    assert_eq!(p(&["--", "list"]), p(&["list"]));
    assert_eq!(
        p(&["--format=json", "run", "--scenario", "5"]),
        p(&["run", "--format=json", "--scenario", "5"])
    );
    assert_eq!(
        p(&[
            "--quiet",
            "--port",
            "0",
            "serve",
            "--transport",
            "http",
            "--preset",
            "x"
        ]),
        p(&[
            "serve",
            "--quiet",
            "--port",
            "0",
            "--transport",
            "http",
            "--preset",
            "x"
        ])
    );
    assert_eq!(
        p(&["client", "--flow", "tools_call", "http://localhost:1/mcp"]),
        Ok(Command::Client(crate::client::ClientArgs {
            flow: Some("tools_call".into()),
            out: None,
            timeout_ms: None,
            target: crate::driver::Target::Http {
                url: "http://localhost:1/mcp".into()
            },
            lang: None,
            keep_secrets: false,
        }))
    );
    assert_eq!(
        p(&[
            "client",
            "--timeout",
            "500",
            "--cmd",
            "python3 'my server.py' --stdio"
        ]),
        Ok(Command::Client(crate::client::ClientArgs {
            flow: None,
            out: None,
            timeout_ms: Some(500),
            target: crate::driver::Target::Stdio {
                command: vec!["python3".into(), "my server.py".into(), "--stdio".into()]
            },
            lang: None,
            keep_secrets: false,
        }))
    );
}

#[test]
fn parses_bridge() {
    assert_eq!(
        p(&[
            "bridge",
            "--cmd",
            "python3 server.py",
            "--port",
            "8931",
            "--allow-origin",
            "http://127.0.0.1:8080/"
        ]),
        Ok(Command::Bridge(crate::bridge::BridgeArgs {
            command: vec!["python3".into(), "server.py".into()],
            port: 8931,
            allow_origin: Some("http://127.0.0.1:8080".into()),
            timeout_ms: crate::bridge::DEFAULT_TIMEOUT_MS,
        }))
    );
}

#[test]
fn parses_check_tools_in_order() {
    let Ok(Command::Check(args)) = p(&[
        "check",
        "--tool",
        "a",
        "--args",
        r#"{"x":1}"#,
        "--flow",
        "meta",
        "--tool",
        "b",
        "--url",
        "http://127.0.0.1:1/mcp",
        "--flow=version",
        "--format",
        "junit",
    ]) else {
        panic!("check parses");
    };
    assert_eq!(
        args.tools,
        vec![
            ("a".to_string(), serde_json::json!({"x": 1})),
            ("b".to_string(), serde_json::json!({}))
        ]
    );
    assert_eq!(args.flows, vec!["meta".to_string(), "version".to_string()]);
    assert_eq!(args.format, ReportFormat::Junit);
    assert_eq!(
        args.target,
        Target::Http {
            url: "http://127.0.0.1:1/mcp".into()
        }
    );
}

#[test]
fn every_command_has_its_help_and_completions_print_a_script() {
    for (command, flags) in [
        ("list", &["--lang"][..]),
        ("run", &["--scenario", "--file", "--format", "--lang"]),
        (
            "serve",
            &[
                "--transport",
                "--port",
                "--preset",
                "--file",
                "--server",
                "--threads",
                "--quiet",
            ],
        ),
        (
            "export",
            &[
                "--scenario",
                "--figure",
                "--lang",
                "--out",
                "--document",
                "--base",
            ],
        ),
        (
            "client",
            &["--flow", "--out", "--timeout", "--cmd", "--lang", "[URL]"],
        ),
        (
            "check",
            &["--url", "--cmd", "--flow", "--tool", "--args", "--format"],
        ),
        (
            "bridge",
            &["--cmd", "--port", "--allow-origin", "--timeout"],
        ),
        ("completions", &["<SHELL>"]),
    ] {
        let Ok(Command::Help(text)) = p(&[command, "--help"]) else {
            panic!("{command} --help");
        };
        for flag in flags {
            assert!(text.contains(flag), "{command} --help names {flag}: {text}");
        }
        assert_eq!(p(&["help", command]), p(&[command, "--help"]));
    }
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let Ok(Command::Completions(script)) = p(&["completions", shell]) else {
            panic!("completions {shell}");
        };
        assert!(script.contains("mcp-lanes"), "{shell}");
        assert!(script.contains("allow-origin"), "{shell}");
    }
}

#[test]
fn typos_get_a_keyed_tip() {
    let Err(err) = p(&["chek"]) else {
        panic!("chek parses");
    };
    assert_eq!(err.message.key, "cli.usage.unknown_command");
    assert_eq!(
        err.tip.map(|t| t.args),
        Some(vec![("suggestion", "check".into())])
    );
    let Err(err) = p(&["run", "--formt", "json"]) else {
        panic!("--formt parses");
    };
    assert_eq!(err.message.key, "cli.usage.invalid_option");
    assert_eq!(
        err.tip.map(|t| t.args),
        Some(vec![("suggestion", "--format".into())])
    );
}

#[test]
fn refuses_what_does_not_fit() {
    for bad in BAD {
        assert!(p(bad).is_err(), "{bad:?} should be a usage error");
    }
}

#[test]
fn keep_secrets_is_a_flag_of_run_client_and_tap() {
    assert_eq!(
        p(&[
            "run",
            "--scenario",
            "23",
            "--format",
            "json",
            "--keep-secrets"
        ]),
        Ok(Command::Run {
            scenario: Scenario::Builtin("23".into()),
            format: Format::Json,
            lang: None,
            keep_secrets: true,
        })
    );
    match p(&[
        "client",
        "--keep-secrets",
        "--out",
        "r.json",
        "http://localhost:1/mcp",
    ]) {
        Ok(Command::Client(args)) => assert!(args.keep_secrets),
        other => panic!("{other:?}"),
    }
    match p(&["tap", "--keep-secrets", "--out", "r.json", "--", "cat"]) {
        Ok(Command::Tap(args)) => assert!(args.keep_secrets),
        other => panic!("{other:?}"),
    }
    match p(&["tap", "--out", "r.json", "--", "cat"]) {
        Ok(Command::Tap(args)) => assert!(!args.keep_secrets),
        other => panic!("{other:?}"),
    }
}

#[test]
fn every_commands_usage_names_each_of_its_options() {
    use clap::CommandFactory;
    // serve groups its HTTP-only options as [HTTP OPTIONS], which its
    // --help lists.
    let http_options = super::usage::HTTP_ONLY;
    let cli = super::cli::Cli::command();
    let synopsis = cli.clone().render_usage().to_string();
    for sub in cli.get_subcommands() {
        let usage = sub.clone().render_usage().to_string();
        for long in sub.get_arguments().filter_map(|a| a.get_long()) {
            if sub.get_name() == "serve" && http_options.contains(&long) {
                continue;
            }
            assert!(
                usage.contains(&format!("--{long}")),
                "{}: --{long} is not in {usage}",
                sub.get_name()
            );
        }
        // The top level's synopsis shows the same lines.
        let own = usage.trim_start_matches("Usage: ");
        for line in own.lines() {
            assert!(
                synopsis.contains(line.trim()),
                "{line:?} is not in the synopsis"
            );
        }
    }
}
