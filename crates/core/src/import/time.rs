//! HAR's `startedDateTime` (ISO 8601, `2026-07-28T10:00:00.123Z` or with
//! an offset `+02:00`) as milliseconds since 1970, without a date library:
//! only differences between entries are used.

/// Milliseconds since 1970-01-01T00:00:00Z, or `None` if `text` is not a
/// date and time of that form.
pub(super) fn parse_ms(text: &str) -> Option<i64> {
    let b = text.as_bytes();
    if b.len() < 19 || b.get(4) != Some(&b'-') || b.get(7) != Some(&b'-') {
        return None;
    }
    if !matches!(b.get(10), Some(b'T' | b't' | b' ')) || b[13] != b':' || b[16] != b':' {
        return None;
    }
    let num = |from: usize, to: usize| -> Option<i64> {
        let s = text.get(from..to)?;
        if s.is_empty() || !s.bytes().all(|c| c.is_ascii_digit()) {
            return None;
        }
        s.parse().ok()
    };
    let (year, month, day) = (num(0, 4)?, num(5, 7)?, num(8, 10)?);
    let (hour, minute, second) = (num(11, 13)?, num(14, 16)?, num(17, 19)?);
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) || hour > 23 || minute > 59 {
        return None;
    }
    if second > 60 {
        return None;
    }
    let mut at = 19;
    let mut millis = 0i64;
    if b.get(at) == Some(&b'.') {
        let start = at + 1;
        let mut end = start;
        while b.get(end).is_some_and(u8::is_ascii_digit) {
            end += 1;
        }
        if end == start {
            return None;
        }
        // Milliseconds: the first three digits, padded.
        let digits = &text[start..end.min(start + 3)];
        millis = digits.parse::<i64>().ok()? * 10i64.pow(3 - digits.len() as u32);
        at = end;
    }
    let offset_minutes = match b.get(at) {
        None => 0,
        Some(b'Z' | b'z') if at + 1 == b.len() => 0,
        Some(sign @ (b'+' | b'-')) if b.len() == at + 6 && b[at + 3] == b':' => {
            let minutes = num(at + 1, at + 3)? * 60 + num(at + 4, at + 6)?;
            if *sign == b'+' {
                minutes
            } else {
                -minutes
            }
        }
        _ => return None,
    };
    let days = days_from_civil(year, month, day);
    let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset_minutes * 60;
    Some(seconds * 1000 + millis)
}

/// Days since 1970-01-01 of a proleptic Gregorian date (`month` 1–12).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    // Years counted from March, so the leap day ends a year.
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let year_of_era = y - era * 400;
    let month_from_march = (month + 9) % 12;
    let day_of_year = (153 * month_from_march + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn har_times_read_as_milliseconds_since_1970() {
        assert_eq!(parse_ms("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(parse_ms("1970-01-02T00:00:00.5Z"), Some(86_400_500));
        assert_eq!(parse_ms("2000-03-01T00:00:00Z"), Some(951_868_800_000));
        assert_eq!(
            parse_ms("2026-07-28T12:00:00.123+02:00"),
            parse_ms("2026-07-28T10:00:00.123Z")
        );
        for bad in [
            "",
            "2026-07-28",
            "2026-13-01T00:00:00Z",
            "2026-07-28T10:00:00.Z",
            "x026-07-28T10:00:00Z",
        ] {
            assert_eq!(parse_ms(bad), None, "{bad}");
        }
    }
}
