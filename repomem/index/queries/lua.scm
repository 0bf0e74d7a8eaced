; Lua tag query (repomem capture convention: see repomem/index/parser.py)
; Grammar: tree-sitter-lua 0.5. A module is a table: `function M.name` and `function M:method`
; belong to `M` (its `@receiver`).

; ---------------------------------------------------------------------------------------------
; Definitions

; function name(), local function name()
(function_declaration
  name: (identifier) @name) @definition.function

; function M.name(), function a.b.name()
(function_declaration
  name: (dot_index_expression
    table: (_) @receiver
    field: (identifier) @name)) @definition.function

; function M:method() (called with `self`)
(function_declaration
  name: (method_index_expression
    table: (_) @receiver
    method: (identifier) @name)) @definition.method

; M.name = function() end, local name = function() end
(assignment_statement
  (variable_list
    .
    name: (dot_index_expression
      table: (_) @receiver
      field: (identifier) @name))
  (expression_list
    .
    value: (function_definition))) @definition.function

(variable_declaration
  (assignment_statement
    (variable_list
      .
      name: (identifier) @name)
    (expression_list
      .
      value: (function_definition)))) @definition.function

; functions in a table constructor: return { lt = function(a, b) ... end }
(field
  name: (identifier) @name
  value: (function_definition)) @definition.function

; a table constructor assigned to a name holds its fields' functions: local M = { f = ... }
(variable_declaration
  (assignment_statement
    (variable_list
      .
      name: (identifier) @name)
    (expression_list
      .
      value: (table_constructor)))) @scope

(assignment_statement
  (variable_list
    .
    name: (dot_index_expression) @name)
  (expression_list
    .
    value: (table_constructor))) @scope

; ---------------------------------------------------------------------------------------------
; References

; calls: f(), M.f(), obj:method()
(function_call
  name: [
    (identifier) @name
    (dot_index_expression field: (identifier) @name)
    (method_index_expression method: (identifier) @name)
  ]) @reference.call

; ---------------------------------------------------------------------------------------------
; Imports

; require("plenary.path"), require "plenary.path"
((function_call
  name: (identifier) @_require
  arguments: (arguments
    (string content: (string_content) @name))) @import
  (#eq? @_require "require"))
