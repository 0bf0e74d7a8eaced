; Lua tag query (repomem capture convention: see repomem/index/parser.py)
; Grammar: tree-sitter-lua 0.5. A module is a table: `function M.name` and `function M:method`
; belong to `M` (its `@receiver`), as functions of a module or methods taking `self`.

; ---------------------------------------------------------------------------------------------
; Definitions

; function name(), local function name()
(function_declaration
  name: (identifier) @name) @definition.function

; A table's function is a method when it takes `self`: declared with a colon
; (`function M:method()`) or with `self` first (`function M.close(self)`, `M.f = function(self)`);
; otherwise it is a function of the table or module (`function M.new()`).

; function M:method()
(function_declaration
  name: (method_index_expression
    table: (_) @receiver
    method: (identifier) @name)) @definition.method

; function M.close(self), function a.b.name(self)
((function_declaration
  name: (dot_index_expression
    table: (_) @receiver
    field: (identifier) @name)
  parameters: (parameters) @_params) @definition.method
  (#match? @_params "^[(]\\s*self\\b"))

; function M.name(), function a.b.name()
((function_declaration
  name: (dot_index_expression
    table: (_) @receiver.module
    field: (identifier) @name)
  parameters: (parameters) @_params) @definition.function
  (#not-match? @_params "^[(]\\s*self\\b"))

; M.name = function(self) end, M.name = function() end, local name = function() end
((assignment_statement
  (variable_list
    .
    name: (dot_index_expression
      table: (_) @receiver
      field: (identifier) @name))
  (expression_list
    .
    value: (function_definition
      parameters: (parameters) @_params))) @definition.method
  (#match? @_params "^[(]\\s*self\\b"))

((assignment_statement
  (variable_list
    .
    name: (dot_index_expression
      table: (_) @receiver.module
      field: (identifier) @name))
  (expression_list
    .
    value: (function_definition parameters: (parameters) @_params))) @definition.function
  (#not-match? @_params "^[(]\\s*self\\b"))

(variable_declaration
  (assignment_statement
    (variable_list
      .
      name: (identifier) @name)
    (expression_list
      .
      value: (function_definition)))) @definition.function

; functions in a table constructor: return { lt = function(a, b) ... end }
((field
  name: (identifier) @name
  value: (function_definition
    parameters: (parameters) @_params)) @definition.method
  (#match? @_params "^[(]\\s*self\\b"))

((field
  name: (identifier) @name
  value: (function_definition parameters: (parameters) @_params)) @definition.function
  (#not-match? @_params "^[(]\\s*self\\b"))

; a table constructor assigned to a name holds its fields' functions: local M = { f = ... }
(variable_declaration
  (assignment_statement
    (variable_list
      .
      name: (identifier) @name)
    (expression_list
      .
      value: (table_constructor)))) @scope.module

(assignment_statement
  (variable_list
    .
    name: (dot_index_expression) @name)
  (expression_list
    .
    value: (table_constructor))) @scope.module

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
