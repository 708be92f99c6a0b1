# feedmill <command>: the command's word, then rss-<command>'s own completion.

# rss-<command>'s completions for the line as if typed with that name.
function __feedmill_complete_as_command
    set -l tokens (commandline -opc)
    set -l line rss-$tokens[2] (string escape -- $tokens[3..-1])
    complete -C (string join ' ' -- $line)' '(commandline -ct)
end

complete -c feedmill -f -n __fish_use_subcommand -a create -d 'same as rss-create'
complete -c feedmill -f -n __fish_use_subcommand -a update -d 'same as rss-update'
complete -c feedmill -f -n __fish_use_subcommand -a publish -d 'same as rss-publish'
complete -c feedmill -f -n __fish_use_subcommand -a inspect -d 'same as rss-inspect'
complete -c feedmill -f -n __fish_use_subcommand -a feeds -d 'same as rss-feeds'
complete -c feedmill -f -n __fish_use_subcommand -a pull -d 'same as rss-pull'
complete -c feedmill -f -n __fish_use_subcommand -a help -d 'a command\'s help'
complete -c feedmill -f -n __fish_use_subcommand -l help -d 'list the commands'
complete -c feedmill -f -n __fish_use_subcommand -l version -d 'print the version'
complete -c feedmill -f -n '__fish_seen_subcommand_from help' -a 'create update publish inspect feeds pull'
complete -c feedmill -f -n '__fish_seen_subcommand_from create update publish inspect feeds pull' -a '(__feedmill_complete_as_command)'
