; Bash tag query (repomem capture convention: see repomem/index/parser.py)
; Grammar: tree-sitter-bash 0.25.

; ---------------------------------------------------------------------------------------------
; Definitions

; name() { ... }, function name { ... }
(function_definition
  name: (word) @name) @definition.function

; ---------------------------------------------------------------------------------------------
; References

; commands: a script's own functions and the programs it runs
(command
  name: (command_name (word) @name)) @reference.call

; ---------------------------------------------------------------------------------------------
; Imports

; source lib/common.sh, . ./env.sh
((command
  name: (command_name (word) @_source)
  .
  argument: [
    (word) @name
    (string) @name
    (raw_string) @name
  ]) @import
  (#any-of? @_source "source" "."))
