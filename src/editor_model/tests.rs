use super::*;

fn runs(text: &str) -> Vec<(Tok, &str)> {
    tokens(text)
        .into_iter()
        .map(|(k, s, e)| (k, &text[s..e]))
        .collect()
}

#[test]
fn tokens_tell_keys_strings_numbers_and_literals_apart() {
    let text = "{\"a\": \"x\\\"{\", \"n\": -1.5e3, \"t\": [true, null], \"é\": \"ü\"}";
    let r = runs(text);
    assert!(r.contains(&(Tok::Key, "\"a\"")));
    assert!(r.contains(&(Tok::Str, "\"x\\\"{\"")));
    assert!(r.contains(&(Tok::Num, "-1.5e3")));
    assert!(r.contains(&(Tok::Lit, "true")));
    assert!(r.contains(&(Tok::Lit, "null")));
    assert!(r.contains(&(Tok::Key, "\"é\"")));
    assert_eq!(
        r.iter().map(|(_, s)| *s).collect::<String>(),
        text,
        "runs cover the text"
    );
    let broken = "{\"open\n: tools/list";
    assert_eq!(
        runs(broken).iter().map(|(_, s)| *s).collect::<String>(),
        broken
    );
    let big = "x".repeat(HIGHLIGHT_LIMIT + 1);
    assert_eq!(tokens(&big), vec![(Tok::Plain, 0, big.len())]);
}

#[test]
fn bracket_pairs_skip_strings_and_flag_strays() {
    let text = "{\"a\": [\"]\", 1]}";
    let toks = tokens(text);
    assert_eq!(bracket_pair(text, &toks, 1), Some((0, Some(14))));
    assert_eq!(
        bracket_pair(text, &toks, 14),
        Some((13, Some(6))),
        "caret after ]"
    );
    assert_eq!(bracket_pair(text, &toks, 8), None, "inside a string");
    let stray = "[1}";
    assert_eq!(bracket_pair(stray, &tokens(stray), 3), Some((2, None)));
}

#[test]
fn offsets_of_line_and_column_stay_on_the_line() {
    let text = "{\n  \"m\": x\n}";
    assert_eq!(&text[offset_of(text, 2, 8)..offset_of(text, 2, 8) + 1], "x");
    assert_eq!(offset_of(text, 2, 99), 10, "end of line 2");
    assert_eq!(offset_of(text, 9, 1), text.len());
    assert_eq!(offset_of("é", 1, 2), 0, "char boundary");
    assert_eq!(byte_of_utf16("a😀b", 3), 5);
    assert_eq!(utf16_len("a😀b"), 4);
}

#[test]
fn enter_keeps_indentation_and_opens_a_level_after_a_bracket() {
    let text = "{\n  \"a\": 1,\n  \"b\": {}\n}";
    let after_comma = text.find(",").unwrap() + 1;
    assert_eq!(
        newline_at(text, after_comma),
        ("\n  ".into(), String::new())
    );
    let inside = text.find("{}").unwrap() + 1;
    assert_eq!(newline_at(text, inside), ("\n    ".into(), "\n  ".into()));
    assert_eq!(newline_at("[", 1), ("\n  ".into(), String::new()));
}

#[test]
fn line_diff_marks_added_and_removed_lines() {
    let a = "{\n  \"code\": -32021,\n  \"x\": 1\n}";
    let b = "{\n  \"result\": {},\n  \"x\": 1\n}";
    let d = line_diff(a, b).unwrap();
    assert_eq!(
        d,
        vec![
            (' ', "{"),
            ('-', "  \"code\": -32021,"),
            ('+', "  \"result\": {},"),
            (' ', "  \"x\": 1"),
            (' ', "}")
        ]
    );
    assert!(line_diff(a, a).unwrap().iter().all(|(c, _)| *c == ' '));
    let long: String = (0..DIFF_LIMIT + 1).map(|i| format!("{i}\n")).collect();
    assert_eq!(line_diff(&long, "x"), None);
}
