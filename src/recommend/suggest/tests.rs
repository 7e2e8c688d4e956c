use super::{effect_side, headline, is_applied, label, rank, verdict, Suggestion, UNCERTAIN};

#[test]
fn applied_optimizations_match_whole_names_not_prefixes() {
    assert!(is_applied("SHMEM", "shmem"));
    assert!(is_applied("READ_ONLY on", "READ_ONLY"));
    assert!(is_applied("TILE_SIZE up", "tile_size up"));
    assert!(!is_applied("SHMEM", "S"));
    assert!(!is_applied("SORT", "S"));
    assert!(!is_applied("TILE_SIZE up", "TILE"));
    assert!(!is_applied("SHMEM", ""));
}

fn s(name: &str, verdict: &'static str, p: f64, c: f64, extrapolation: bool) -> Suggestion {
    Suggestion {
        optimization: name.into(),
        predicted_speedup: p,
        second_opinion: p,
        confidence: c,
        confidence_label: label(c),
        verdict,
        extrapolation,
        reason: String::new(),
        validated_accuracy: None,
        majority_accuracy: None,
        across_programs_accuracy: None,
        across_programs_model_accuracy: None,
        across_programs_majority_accuracy: None,
        validation_table: None,
        raw_score: 0.0,
        coverage: 1.0,
        simulated_only: false,
        host_link: None,
        other_host_link: false,
        follows_rule: false,
        rule_by_program: Vec::new(),
        deciding_counters: Vec::new(),
        step: None,
    }
}

#[test]
fn recommendations_inside_the_data_rank_by_confidence() {
    let mut list = [
        s("NOTHING", "no clear effect", 1.01, 0.99, false),
        s("FAR", "recommend", 1.84, 0.61, true),
        s("NEAR", "recommend", 1.37, 0.99, false),
        s("NEAR_SMALL", "recommend", 1.10, 0.99, false),
        s("FAR_SMALL", "recommend", 1.30, 0.61, true),
        // A large prediction does not lift a less certain suggestion above a surer one.
        s("UNSURE_BIG", "recommend", 1.90, 0.55, false),
        s("SURE_SMALL", "recommend", 1.05, 0.70, false),
    ];
    list.sort_by(rank);
    let order: Vec<&str> = list.iter().map(|s| s.optimization.as_str()).collect();
    assert_eq!(
        order,
        [
            "NEAR",
            "NEAR_SMALL",
            "SURE_SMALL",
            "UNSURE_BIG",
            "FAR",
            "FAR_SMALL",
            "NOTHING"
        ]
    );
}

#[test]
fn a_report_leads_with_a_recommendation_else_with_a_speedup_at_under_even_odds() {
    let mut list = vec![
        s("SLOWER", UNCERTAIN, 0.8, 0.45, false),
        s("FASTER", UNCERTAIN, 1.3, 0.40, true),
        s("NOTHING", "no clear effect", 1.01, 0.9, false),
    ];
    assert_eq!(headline(&list).unwrap().optimization, "FASTER");
    list.push(s("SURE", "recommend", 1.1, 0.7, false));
    assert_eq!(headline(&list).unwrap().optimization, "SURE");
    assert!(headline(&list[..1]).is_none());
}

#[test]
fn every_verdict_needs_even_odds_and_a_validation_better_than_a_coin_toss() {
    let v = |p: f64, c: f64, no_evidence: bool| verdict(effect_side(p), c, no_evidence);
    assert_eq!(v(1.30, 0.70, false), "recommend");
    assert_eq!(v(0.80, 0.70, false), "not recommended");
    assert_eq!(v(1.01, 0.70, false), "no clear effect");
    assert_eq!(v(0.99, 0.70, false), "no clear effect");
    for p in [1.30, 0.80, 1.01, 1.00] {
        assert_eq!(v(p, 0.49, false), UNCERTAIN, "{p} under even odds");
        assert_eq!(v(p, 0.90, true), UNCERTAIN, "{p} after a coin toss");
    }
    // A side given (a rule often slower, majority_rule::often_slower) decides as the band would.
    assert_eq!(verdict(-1, 0.70, false), "not recommended");
    assert_eq!(verdict(-1, 0.40, false), UNCERTAIN);
}
