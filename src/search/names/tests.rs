use super::*;

/// A share over 1 is an error, not quietly 1, and an option of the Bayesian steps is
/// named in its error as the user wrote it.
#[test]
fn bayesian_options_say_what_is_wrong_as_written() {
    let err = |spec: &str| strategy(spec).err().map(|e| e.to_string());
    assert!(err("auto:bo=2").unwrap().contains("option bo=2: the share"));
    assert!(err("auto:boell=-1").unwrap().contains("option boell=-1:"));
    assert!(strategy("auto:bo=0.5").is_ok());
}

#[test]
fn each_strategy_once_in_the_order_first_named() {
    let names = |list: &[&str]| -> Vec<String> {
        let specs: Vec<String> = list.iter().map(|s| s.to_string()).collect();
        strategies(&specs)
            .unwrap()
            .iter()
            .map(|s| s.name())
            .collect()
    };
    assert_eq!(
        names(&["auto", "random", "auto"]),
        names(&["auto", "random"])
    );
    let all = names(&["all"]);
    assert_eq!(names(&["all", "auto"]), all);
    assert_eq!(names(&["random", "all"])[0], names(&["random"])[0]);
    assert_eq!(names(&["random", "all"]).len(), all.len());
}

#[test]
fn auto_takes_the_local_search_options_and_refuses_others() {
    let s = strategy("auto:model=0,nb=adjacent").unwrap();
    assert_eq!(s.name(), "auto-adjacent-m0");
    let s = strategy("auto:modelrows=0.5,gate=0.7").unwrap();
    assert_eq!(s.name(), "auto-mr0.5-g0.7");
    let err = strategy("auto:shake=3").err().unwrap().to_string();
    assert!(err.contains("no option `shake`"), "{err}");
    let err = strategy("auto:temp=1,temp=2").err().unwrap().to_string();
    assert!(
        err.contains("option `temp` is given twice (`temp=1` and `temp=2`)"),
        "{err}"
    );
}

#[test]
fn on_off_options_refuse_what_is_neither() {
    assert_eq!(strategy("auto:model=off").unwrap().name(), "auto-moff");
    assert_eq!(strategy("auto:momentum=yes").unwrap().name(), "auto-moyes");
    let err = strategy("auto:model=maybe").err().unwrap().to_string();
    assert!(err.contains("option model=maybe: expected 1 or 0"), "{err}");
    let err = strategy("auto:momentum=2").err().unwrap().to_string();
    assert!(err.contains("option momentum=2"), "{err}");
}

#[test]
fn free_moves_take_off_adjacent_or_all() {
    assert_eq!(strategy("auto:free=all").unwrap().name(), "auto-frall");
    assert_eq!(strategy("auto:free=off").unwrap().name(), "auto-froff");
    assert_eq!(
        strategy("auto:freefrom=0.01").unwrap().name(),
        "auto-ff0.01"
    );
    assert!(strategy("auto:freefrom=-1").is_err());
    let err = strategy("auto:free=some").err().unwrap().to_string();
    assert!(err.contains("free=some: use off, adjacent or all"), "{err}");
}

#[test]
fn offspring_take_a_share_and_a_count_kept() {
    assert_eq!(
        strategy("auto:offspring=0.2,offkeep=5").unwrap().name(),
        "auto-o0.2-ok5"
    );
    assert_eq!(strategy("auto:offspring=0").unwrap().name(), "auto-o0");
    assert!(strategy("auto:offspring=1.5").is_err());
    assert!(strategy("auto:offkeep=-2").is_err());
    let err = strategy("greedy_ils:offspring=0.1")
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("no option `offspring`"), "{err}");
}

#[test]
fn monotone_takes_a_count_of_pairs_or_0() {
    assert_eq!(strategy("auto:monotone=8").unwrap().name(), "auto-mono8");
    assert_eq!(strategy("auto:monotone=0").unwrap().name(), "auto-mono0");
    let err = strategy("auto:monotone=-1").err().unwrap().to_string();
    assert!(err.contains("option monotone=-1"), "{err}");
    assert!(strategy("auto:monotone=99999999999").is_err());
}

#[test]
fn weight_options_need_the_weighing_rule() {
    // auto weighs by default; bayes_opt counts failures as the slowest time.
    assert!(strategy("auto:bofailpow=1").is_ok());
    assert!(strategy("bayes_opt:fail=weigh,failell=1").is_ok());
    let err = strategy("auto:bofail=drop,bofailpow=0.5")
        .err()
        .unwrap()
        .to_string();
    assert!(
        err.contains("option bofailpow shapes the weights of bofail=weigh"),
        "{err}"
    );
    let err = strategy("bayes_opt:failell=2").err().unwrap().to_string();
    assert!(err.contains("give fail=weigh with it"), "{err}");
}

#[test]
fn bayesian_optimisation_takes_its_process_options() {
    let s = strategy("bayes_opt:scale=unit,ell=1.5,target=time").unwrap();
    assert_eq!(s.name(), "bayes_opt-unit-ell1.5-time");
    assert_eq!(strategy("bayes_opt:scale=kt").unwrap().name(), "bayes_opt");
    assert_eq!(strategy("bayes_opt").unwrap().name(), "bayes_opt");
    let s = strategy("auto:boscale=unit,botarget=log").unwrap();
    assert_eq!(s.name(), "auto-boscaleunit-botargetlog");
    let s = strategy("auto:boalt=0,boaltfrom=100").unwrap();
    assert_eq!(s.name(), "auto-boalt0-boaltfrom100");
    let s = strategy("bayes_opt:alt=1.5,altfrom=300").unwrap();
    assert_eq!(s.name(), "bayes_opt-alt1.5from300");
    let err = strategy("auto:boaltfrom=x").err().unwrap().to_string();
    assert!(
        err.contains("option boaltfrom=x: expected a whole number"),
        "{err}"
    );
    let err = strategy("bayes_opt:scale=wide").err().unwrap().to_string();
    assert!(err.contains("use unit or kt"), "{err}");
    let err = strategy("auto:botarget=speed").err().unwrap().to_string();
    assert!(err.contains("use log or time"), "{err}");
}
