--- Path utilities.
-- @module plenary.path
local scandir = require("plenary.scandir")
local log = require "plenary.log"

local Path = {}
Path.__index = Path

--- Joins the parts of a path.
---@param ... string the parts
---@return string
function Path.join(...)
  return table.concat({ ... }, "/")
end

-- Whether the path exists.
function Path:exists()
  return vim.loop.fs_stat(self.filename) ~= nil
end

local function normalize(filename)
  return filename:gsub("//", "/")
end

function Path.new(filename)
  local self = setmetatable({ filename = normalize(filename) }, Path)
  return self
end

function vim.fn.custom(x)
  return x
end

Path.is_dir = function(self)
  return scandir.is_dir(self.filename)
end

local warn = function(msg)
  log.warn(msg)
end

function global_helper() end

local matchers = {
  --- Whether a value is nil.
  is_nil = function(value)
    return value == nil
  end,
  limit = 10,
}

Path.ops = {
  eq = function(a, b) return a == b end,
}

return Path
