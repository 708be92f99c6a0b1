function __rss-feeds_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __rss-feeds_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __rss-feeds_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __rss-feeds_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __rss-feeds_parse_tokens -S
    set -l unparsed_tokens (__rss-feeds_tokens -pc)
    switch $unparsed_tokens[1]
    case 'rss-feeds'
        __rss-feeds_parse_subcommand 0 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'list'
            __rss-feeds_parse_subcommand 0 'format=' 'data-dir=' 'config=' 'print-config' 'log-format=' 'q/quiet' 'v/verbose' 'now=' 'allow-other-user' 'version' 'h/help'
        case 'add'
            __rss-feeds_parse_subcommand 1 'title=' 'category=' 'data-dir=' 'config=' 'print-config' 'log-format=' 'q/quiet' 'v/verbose' 'now=' 'allow-other-user' 'version' 'h/help'
        case 'remove'
            __rss-feeds_parse_subcommand -r 1 'data-dir=' 'config=' 'print-config' 'log-format=' 'q/quiet' 'v/verbose' 'now=' 'allow-other-user' 'version' 'h/help'
        case 'set'
            __rss-feeds_parse_subcommand 1 'keep-items=' 'keep-days=' 'run-defaults' 'data-dir=' 'config=' 'print-config' 'log-format=' 'q/quiet' 'v/verbose' 'now=' 'allow-other-user' 'version' 'h/help'
        case 'export'
            __rss-feeds_parse_subcommand 0 'title=' 'data-dir=' 'config=' 'print-config' 'log-format=' 'q/quiet' 'v/verbose' 'now=' 'allow-other-user' 'version' 'h/help'
        case 'help'
            __rss-feeds_parse_subcommand -r 1 'version'
        end
    end
end

function __rss-feeds_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __rss-feeds_parse_subcommand -S -a positional_count
    argparse -s r -- $argv
    set -l option_specs $argv[2..]
    set -l is_repeating_positional $_flag_r
    set -el _flag_r
    set -a commands $unparsed_tokens[1]
    set positional_index 0
    while true
        set -e unparsed_tokens[1]
        argparse -sn "$commands" $option_specs -- $unparsed_tokens 2> /dev/null
        set unparsed_tokens $argv
        set positional_index (math $positional_index + 1)
        for non_repeating_flag_or_option in $non_repeating_flags_or_options
            if set -ql "_flag_$(string replace -a - _ -- $non_repeating_flag_or_option)"
                set non_repeating_flags_or_options_absent 1
                break
            end
        end
        test (count $unparsed_tokens) -eq 0 -o \( -z "$is_repeating_positional" -a "$positional_index" -gt "$positional_count" \) && break
    end
end

function __rss-feeds_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __rss-feeds_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__rss-feeds_tokens -p)
    if test -z "$(__rss-feeds_tokens -t)"
        set -l index (count (__rss-feeds_tokens -pc))
        set tokens $tokens[..$index] '' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'rss-feeds' -f
complete -c 'rss-feeds' -n '__rss-feeds_should_offer_completions_for_flags_or_options "rss-feeds" version' -l 'version' -d 'Show the version.'
complete -c 'rss-feeds' -n '__rss-feeds_should_offer_completions_for_flags_or_options "rss-feeds" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'rss-feeds' -n '__rss-feeds_should_offer_completions_for_positional "rss-feeds" -eq 1' -fa 'list' -d 'List every feed: title, items, last success, next due, last error, URL.'
complete -c 'rss-feeds' -n '__rss-feeds_should_offer_completions_for_positional "rss-feeds" -eq 1' -fa 'add' -d 'Add a feed by URL (fetched by the next rss-update); a URL already listed keeps its feedid.'
complete -c 'rss-feeds' -n '__rss-feeds_should_offer_completions_for_positional "rss-feeds" -eq 1' -fa 'remove' -d 'Remove feeds from the catalog, and their databases; their feedids are never given again.'
complete -c 'rss-feeds' -n '__rss-feeds_should_offer_completions_for_positional "rss-feeds" -eq 1' -fa 'set' -d 'Set a feed\'s own retention, overriding --keep-items/--keep-days for it.'
complete -c 'rss-feeds' -n '__rss-feeds_should_offer_completions_for_positional "rss-feeds" -eq 1' -fa 'export' -d 'Print the catalog as OPML 2.0 (categories nested), ready for rss-create --opml.'
complete -c 'rss-feeds' -n '__rss-feeds_should_offer_completions_for_positional "rss-feeds" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'rss-feeds' -n '__rss-feeds_should_offer_completions_for_flags_or_options "rss-feeds list" format' -l 'format' -d 'table (for people) or json (one array, every key always present).' -rfka 'table json'
complete -c 'rss-feeds' -n '__rss-feeds_should_offer_completions_for_flags_or_options "rss-feeds list" data-dir' -l 'data-dir' -d 'Directory holding all_feeds.sqlite and the feed_<id>.sqlite files. (default: ./data; env FEEDMILL_DATA_DIR)' -rfa '(__rss-feeds_complete_directories)'
complete -c 'rss-feeds' -n '__rss-feeds_should_offer_completions_for_flags_or_options "rss-feeds list" config' -l 'config' -d 'Configuration file (default: $FEEDMILL_CONFIG, else the first of ./feedmill.toml, ~/.config/feedmill/feedmill.toml, /etc/feedmill/feedmill.toml that exists).' -rfa '(for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.\'toml\';printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'rss-feeds' -n '__rss-feeds_should_offer_completions_for_flags_or_options "rss-feeds list" print-config' -l 'print-config' -d 'Print the effective settings and where each came from, then exit.'
complete -c 'rss-feeds' -n '__rss-feeds_should_offer_completions_for_flags_or_options "rss-feeds list" log-format' -l 'log-format' -d 'text (readable lines) or json (one object per line). (default: text; env FEEDMILL_LOG_FORMAT)' -rfka 'text json'
complete -c 'rss-feeds' -n '__rss-feeds_should_offer_completions_for_flags_or_options "rss-feeds list" q quiet' -l 'quiet' -s 'q' -d 'Print errors only: no progress, no summary.'
complete -c 'rss-feeds' -n '__rss-feeds_should_offer_completions_for_flags_or_options "rss-feeds list" v verbose' -l 'verbose' -s 'v' -d 'Log every feed, not only failures.'
complete -c 'rss-feeds' -n '__rss-feeds_should_offer_completions_for_flags_or_options "rss-feeds list" now' -l 'now' -d 'Seconds since 1970 to use as the current time everywhere (reproducible runs). (default: the system clock; env SOURCE_DATE_EPOCH)' -rfka ''
complete -c 'rss-feeds' -n '__rss-feeds_should_offer_completions_for_flags_or_options "rss-feeds list" allow-other-user' -l 'allow-other-user' -d 'Write into a data or output directory another user owns (refused by default: files written would not be writable by the owner); as root, what is created there is given the directory\'s owner, group and mode. (env FEEDMILL_ALLOW_OTHER_USER=1)'
complete -c 'rss-feeds' -n '__rss-feeds_should_offer_completions_for_flags_or_options "rss-feeds list" version' -l 'version' -d 'Show the version.'
complete -c 'rss-feeds' -n '__rss-feeds_should_offer_completions_for_flags_or_options "rss-feeds list" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'rss-feeds' -n '__rss-feeds_should_offer_completions_for_flags_or_options "rss-feeds add" title' -l 'title' -d 'The feed\'s title in the list (until the feed\'s own is read).' -rfka ''
complete -c 'rss-feeds' -n '__rss-feeds_should_offer_completions_for_flags_or_options "rss-feeds add" category' -l 'category' -d 'Category path, as OPML nesting gives it (News/Tech).' -rfka ''
complete -c 'rss-feeds' -n '__rss-feeds_should_offer_completions_for_flags_or_options "rss-feeds add" data-dir' -l 'data-dir' -d 'Directory holding all_feeds.sqlite and the feed_<id>.sqlite files. (default: ./data; env FEEDMILL_DATA_DIR)' -rfa '(__rss-feeds_complete_directories)'
complete -c 'rss-feeds' -n '__rss-feeds_should_offer_completions_for_flags_or_options "rss-feeds add" config' -l 'config' -d 'Configuration file (default: $FEEDMILL_CONFIG, else the first of ./feedmill.toml, ~/.config/feedmill/feedmill.toml, /etc/feedmill/feedmill.toml that exists).' -rfa '(for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.\'toml\';printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'rss-feeds' -n '__rss-feeds_should_offer_completions_for_flags_or_options "rss-feeds add" print-config' -l 'print-config' -d 'Print the effective settings and where each came from, then exit.'
complete -c 'rss-feeds' -n '__rss-feeds_should_offer_completions_for_flags_or_options "rss-feeds add" log-format' -l 'log-format' -d 'text (readable lines) or json (one object per line). (default: text; env FEEDMILL_LOG_FORMAT)' -rfka 'text json'
complete -c 'rss-feeds' -n '__rss-feeds_should_offer_completions_for_flags_or_options "rss-feeds add" q quiet' -l 'quiet' -s 'q' -d 'Print errors only: no progress, no summary.'
complete -c 'rss-feeds' -n '__rss-feeds_should_offer_completions_for_flags_or_options "rss-feeds add" v verbose' -l 'verbose' -s 'v' -d 'Log every feed, not only failures.'
complete -c 'rss-feeds' -n '__rss-feeds_should_offer_completions_for_flags_or_options "rss-feeds add" now' -l 'now' -d 'Seconds since 1970 to use as the current time everywhere (reproducible runs). (default: the system clock; env SOURCE_DATE_EPOCH)' -rfka ''
complete -c 'rss-feeds' -n '__rss-feeds_should_offer_completions_for_flags_or_options "rss-feeds add" allow-other-user' -l 'allow-other-user' -d 'Write into a data or output directory another user owns (refused by default: files written would not be writable by the owner); as root, what is created there is given the directory\'s owner, group and mode. (env FEEDMILL_ALLOW_OTHER_USER=1)'
complete -c 'rss-feeds' -n '__rss-feeds_should_offer_completions_for_flags_or_options "rss-feeds add" version' -l 'version' -d 'Show the version.'
complete -c 'rss-feeds' -n '__rss-feeds_should_offer_completions_for_flags_or_options "rss-feeds add" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'rss-feeds' -n '__rss-feeds_should_offer_completions_for_positional "rss-feeds remove" -ge 1' -fka '(__rss-feeds_custom_completion ---completion remove -- positional@0 (count (__rss-feeds_tokens -pc)) (__rss-feeds_tokens -tC))'
complete -c 'rss-feeds' -n '__rss-feeds_should_offer_completions_for_flags_or_options "rss-feeds remove" data-dir' -l 'data-dir' -d 'Directory holding all_feeds.sqlite and the feed_<id>.sqlite files. (default: ./data; env FEEDMILL_DATA_DIR)' -rfa '(__rss-feeds_complete_directories)'
complete -c 'rss-feeds' -n '__rss-feeds_should_offer_completions_for_flags_or_options "rss-feeds remove" config' -l 'config' -d 'Configuration file (default: $FEEDMILL_CONFIG, else the first of ./feedmill.toml, ~/.config/feedmill/feedmill.toml, /etc/feedmill/feedmill.toml that exists).' -rfa '(for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.\'toml\';printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'rss-feeds' -n '__rss-feeds_should_offer_completions_for_flags_or_options "rss-feeds remove" print-config' -l 'print-config' -d 'Print the effective settings and where each came from, then exit.'
complete -c 'rss-feeds' -n '__rss-feeds_should_offer_completions_for_flags_or_options "rss-feeds remove" log-format' -l 'log-format' -d 'text (readable lines) or json (one object per line). (default: text; env FEEDMILL_LOG_FORMAT)' -rfka 'text json'
complete -c 'rss-feeds' -n '__rss-feeds_should_offer_completions_for_flags_or_options "rss-feeds remove" q quiet' -l 'quiet' -s 'q' -d 'Print errors only: no progress, no summary.'
complete -c 'rss-feeds' -n '__rss-feeds_should_offer_completions_for_flags_or_options "rss-feeds remove" v verbose' -l 'verbose' -s 'v' -d 'Log every feed, not only failures.'
complete -c 'rss-feeds' -n '__rss-feeds_should_offer_completions_for_flags_or_options "rss-feeds remove" now' -l 'now' -d 'Seconds since 1970 to use as the current time everywhere (reproducible runs). (default: the system clock; env SOURCE_DATE_EPOCH)' -rfka ''
complete -c 'rss-feeds' -n '__rss-feeds_should_offer_completions_for_flags_or_options "rss-feeds remove" allow-other-user' -l 'allow-other-user' -d 'Write into a data or output directory another user owns (refused by default: files written would not be writable by the owner); as root, what is created there is given the directory\'s owner, group and mode. (env FEEDMILL_ALLOW_OTHER_USER=1)'
complete -c 'rss-feeds' -n '__rss-feeds_should_offer_completions_for_flags_or_options "rss-feeds remove" version' -l 'version' -d 'Show the version.'
complete -c 'rss-feeds' -n '__rss-feeds_should_offer_completions_for_flags_or_options "rss-feeds remove" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'rss-feeds' -n '__rss-feeds_should_offer_completions_for_positional "rss-feeds set" -eq 1' -fka '(__rss-feeds_custom_completion ---completion set -- positional@0 (count (__rss-feeds_tokens -pc)) (__rss-feeds_tokens -tC))'
complete -c 'rss-feeds' -n '__rss-feeds_should_offer_completions_for_flags_or_options "rss-feeds set" keep-items' -l 'keep-items' -d 'Keep at most this many items (items the feed lists are always kept).' -rfka ''
complete -c 'rss-feeds' -n '__rss-feeds_should_offer_completions_for_flags_or_options "rss-feeds set" keep-days' -l 'keep-days' -d 'Keep items published within this many days (items the feed lists are always kept).' -rfka ''
complete -c 'rss-feeds' -n '__rss-feeds_should_offer_completions_for_flags_or_options "rss-feeds set" run-defaults' -l 'run-defaults' -d 'Clear the feed\'s own limits: the run\'s settings apply again.'
complete -c 'rss-feeds' -n '__rss-feeds_should_offer_completions_for_flags_or_options "rss-feeds set" data-dir' -l 'data-dir' -d 'Directory holding all_feeds.sqlite and the feed_<id>.sqlite files. (default: ./data; env FEEDMILL_DATA_DIR)' -rfa '(__rss-feeds_complete_directories)'
complete -c 'rss-feeds' -n '__rss-feeds_should_offer_completions_for_flags_or_options "rss-feeds set" config' -l 'config' -d 'Configuration file (default: $FEEDMILL_CONFIG, else the first of ./feedmill.toml, ~/.config/feedmill/feedmill.toml, /etc/feedmill/feedmill.toml that exists).' -rfa '(for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.\'toml\';printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'rss-feeds' -n '__rss-feeds_should_offer_completions_for_flags_or_options "rss-feeds set" print-config' -l 'print-config' -d 'Print the effective settings and where each came from, then exit.'
complete -c 'rss-feeds' -n '__rss-feeds_should_offer_completions_for_flags_or_options "rss-feeds set" log-format' -l 'log-format' -d 'text (readable lines) or json (one object per line). (default: text; env FEEDMILL_LOG_FORMAT)' -rfka 'text json'
complete -c 'rss-feeds' -n '__rss-feeds_should_offer_completions_for_flags_or_options "rss-feeds set" q quiet' -l 'quiet' -s 'q' -d 'Print errors only: no progress, no summary.'
complete -c 'rss-feeds' -n '__rss-feeds_should_offer_completions_for_flags_or_options "rss-feeds set" v verbose' -l 'verbose' -s 'v' -d 'Log every feed, not only failures.'
complete -c 'rss-feeds' -n '__rss-feeds_should_offer_completions_for_flags_or_options "rss-feeds set" now' -l 'now' -d 'Seconds since 1970 to use as the current time everywhere (reproducible runs). (default: the system clock; env SOURCE_DATE_EPOCH)' -rfka ''
complete -c 'rss-feeds' -n '__rss-feeds_should_offer_completions_for_flags_or_options "rss-feeds set" allow-other-user' -l 'allow-other-user' -d 'Write into a data or output directory another user owns (refused by default: files written would not be writable by the owner); as root, what is created there is given the directory\'s owner, group and mode. (env FEEDMILL_ALLOW_OTHER_USER=1)'
complete -c 'rss-feeds' -n '__rss-feeds_should_offer_completions_for_flags_or_options "rss-feeds set" version' -l 'version' -d 'Show the version.'
complete -c 'rss-feeds' -n '__rss-feeds_should_offer_completions_for_flags_or_options "rss-feeds set" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'rss-feeds' -n '__rss-feeds_should_offer_completions_for_flags_or_options "rss-feeds export" title' -l 'title' -d 'The OPML head\'s title.' -rfka ''
complete -c 'rss-feeds' -n '__rss-feeds_should_offer_completions_for_flags_or_options "rss-feeds export" data-dir' -l 'data-dir' -d 'Directory holding all_feeds.sqlite and the feed_<id>.sqlite files. (default: ./data; env FEEDMILL_DATA_DIR)' -rfa '(__rss-feeds_complete_directories)'
complete -c 'rss-feeds' -n '__rss-feeds_should_offer_completions_for_flags_or_options "rss-feeds export" config' -l 'config' -d 'Configuration file (default: $FEEDMILL_CONFIG, else the first of ./feedmill.toml, ~/.config/feedmill/feedmill.toml, /etc/feedmill/feedmill.toml that exists).' -rfa '(for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.\'toml\';printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'rss-feeds' -n '__rss-feeds_should_offer_completions_for_flags_or_options "rss-feeds export" print-config' -l 'print-config' -d 'Print the effective settings and where each came from, then exit.'
complete -c 'rss-feeds' -n '__rss-feeds_should_offer_completions_for_flags_or_options "rss-feeds export" log-format' -l 'log-format' -d 'text (readable lines) or json (one object per line). (default: text; env FEEDMILL_LOG_FORMAT)' -rfka 'text json'
complete -c 'rss-feeds' -n '__rss-feeds_should_offer_completions_for_flags_or_options "rss-feeds export" q quiet' -l 'quiet' -s 'q' -d 'Print errors only: no progress, no summary.'
complete -c 'rss-feeds' -n '__rss-feeds_should_offer_completions_for_flags_or_options "rss-feeds export" v verbose' -l 'verbose' -s 'v' -d 'Log every feed, not only failures.'
complete -c 'rss-feeds' -n '__rss-feeds_should_offer_completions_for_flags_or_options "rss-feeds export" now' -l 'now' -d 'Seconds since 1970 to use as the current time everywhere (reproducible runs). (default: the system clock; env SOURCE_DATE_EPOCH)' -rfka ''
complete -c 'rss-feeds' -n '__rss-feeds_should_offer_completions_for_flags_or_options "rss-feeds export" allow-other-user' -l 'allow-other-user' -d 'Write into a data or output directory another user owns (refused by default: files written would not be writable by the owner); as root, what is created there is given the directory\'s owner, group and mode. (env FEEDMILL_ALLOW_OTHER_USER=1)'
complete -c 'rss-feeds' -n '__rss-feeds_should_offer_completions_for_flags_or_options "rss-feeds export" version' -l 'version' -d 'Show the version.'
complete -c 'rss-feeds' -n '__rss-feeds_should_offer_completions_for_flags_or_options "rss-feeds export" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'rss-feeds' -n '__rss-feeds_should_offer_completions_for_flags_or_options "rss-feeds help" version' -l 'version' -d 'Show the version.'
