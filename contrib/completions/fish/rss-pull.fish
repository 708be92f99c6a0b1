function __rss-pull_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __rss-pull_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __rss-pull_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __rss-pull_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __rss-pull_parse_tokens -S
    set -l unparsed_tokens (__rss-pull_tokens -pc)
    switch $unparsed_tokens[1]
    case 'rss-pull'
        __rss-pull_parse_subcommand 2 'feed=+' 'trust=+' 'timeout=' 'catalog-max-age=' 'catalog=' 'search=' 'deadline=' 'every=' 'live' 'server=' 'token-file=' 'mark=+' 'json' 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'help'
            __rss-pull_parse_subcommand -r 1 'version'
        end
    end
end

function __rss-pull_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __rss-pull_parse_subcommand -S -a positional_count
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

function __rss-pull_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __rss-pull_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__rss-pull_tokens -p)
    if test -z "$(__rss-pull_tokens -t)"
        set -l index (count (__rss-pull_tokens -pc))
        set tokens $tokens[..$index] '' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'rss-pull' -f
complete -c 'rss-pull' -n '__rss-pull_should_offer_completions_for_positional "rss-pull" -eq 1' -fa '(__rss-pull_complete_directories)'
complete -c 'rss-pull' -n '__rss-pull_should_offer_completions_for_flags_or_options "rss-pull"' -l 'feed' -d 'Follow only this feed (repeatable; default: every published feed).' -rfka ''
complete -c 'rss-pull' -n '__rss-pull_should_offer_completions_for_flags_or_options "rss-pull"' -l 'trust' -d 'Accept only a publication signed by this key (repeatable, e.g. the old and the new one while the publisher rotates); anything else is refused and the files held are kept.' -rfka ''
complete -c 'rss-pull' -n '__rss-pull_should_offer_completions_for_flags_or_options "rss-pull" timeout' -l 'timeout' -d 'Seconds each request may take, its whole body included (a server sending a byte at a time cannot stretch it).' -rfka ''
complete -c 'rss-pull' -n '__rss-pull_should_offer_completions_for_flags_or_options "rss-pull" catalog-max-age' -l 'catalog-max-age' -d 'Format 2: seconds a local catalog is kept while a newer one is published (when it lists every followed feed).' -rfka ''
complete -c 'rss-pull' -n '__rss-pull_should_offer_completions_for_flags_or_options "rss-pull" catalog' -l 'catalog' -d 'Following some feeds: all_feeds.sqlite written from their pointers (followed), or the published one (published).' -rfka 'followed published'
complete -c 'rss-pull' -n '__rss-pull_should_offer_completions_for_flags_or_options "rss-pull" search' -l 'search' -d 'Search the catalog\'s title index for titles starting with TEXT (case and accents aside) and print them, without syncing or downloading the catalog (a publication of issue 51 or later).' -rfka ''
complete -c 'rss-pull' -n '__rss-pull_should_offer_completions_for_flags_or_options "rss-pull" deadline' -l 'deadline' -d 'Stop cleanly after this long (30s, 5m): what was finished is kept, the rest is left for the next run (exit 124).' -rfka ''
complete -c 'rss-pull' -n '__rss-pull_should_offer_completions_for_flags_or_options "rss-pull" every' -l 'every' -d 'Sync now and then every DURATION (after a failure sooner: 30 s, doubling) until SIGINT or SIGTERM; prints only syncs that changed something or failed.' -rfka ''
complete -c 'rss-pull' -n '__rss-pull_should_offer_completions_for_flags_or_options "rss-pull" live' -l 'live' -d 'Sync, then keep the folder in step through rss-serve\'s event stream (each new publication\'s patches applied as they come) until SIGINT or SIGTERM; a line per change.'
complete -c 'rss-pull' -n '__rss-pull_should_offer_completions_for_flags_or_options "rss-pull" server' -l 'server' -d 'With --live: rss-serve\'s URL when it is not base-url (a publication in a bucket or behind a CDN).' -rfka ''
complete -c 'rss-pull' -n '__rss-pull_should_offer_completions_for_flags_or_options "rss-pull" token-file' -l 'token-file' -d 'Also sync read/starred marks with rss-serve (--server, or base-url) as the user whose token is in FILE: marks set here are sent, the user\'s other devices\' are received.' -rF
complete -c 'rss-pull' -n '__rss-pull_should_offer_completions_for_flags_or_options "rss-pull"' -l 'mark' -d 'Set a mark on this device before syncing (repeatable): FEEDID:read|unread|star|unstar:ITEM-ID (the item\'s items.id).' -rfka ''
complete -c 'rss-pull' -n '__rss-pull_should_offer_completions_for_flags_or_options "rss-pull" json' -l 'json' -d 'Print the report as JSON instead of one line.'
complete -c 'rss-pull' -n '__rss-pull_should_offer_completions_for_flags_or_options "rss-pull" version' -l 'version' -d 'Show the version.'
complete -c 'rss-pull' -n '__rss-pull_should_offer_completions_for_flags_or_options "rss-pull" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'rss-pull' -n '__rss-pull_should_offer_completions_for_positional "rss-pull" -eq 2' -fa 'help' -d 'Show subcommand help information.'
complete -c 'rss-pull' -n '__rss-pull_should_offer_completions_for_flags_or_options "rss-pull help" version' -l 'version' -d 'Show the version.'
