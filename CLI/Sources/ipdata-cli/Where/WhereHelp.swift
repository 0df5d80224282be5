/// The grammar of `--where` as `ipdata help filter` and `ipdata help bulk` print it, in
/// `HelpProse.flowed` text (an indented line is kept as it is).
enum WhereHelp {
    static let grammar = """
        The expression of --where reads the fields of each address's lookup by their dotted
        paths, as -f names them:

          threat.is_tor, asn.type   a field's value; missing: null
          80, 1.5, 'CN', "CN"       numbers, and text in single or double quotes (no escapes)
          true, false, null         the JSON values
          == != < <= > >=           comparisons
          x in ['CN', 'RU']         one of a list; not in: none of it
          ip in 10.0.0.0/8          an address inside a network (or a list of them)
          not, and, or, ( )         from the tightest: not, and, or

        A bare path is true only when its value is true (threat.is_tor). not applies to the
        comparison after it (not a >= 80 is not (a >= 80)). Text compares exactly, case
        included. A comparison of values of different types (a number and text, null and a
        number) is false, not an error; != is the negation of ==, so threat.is_tor != true holds
        for a missing value. A field no lookup has (thret.is_tor) is a usage error.
        """
}
