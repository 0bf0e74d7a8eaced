local M = {}

--- Adds two numbers.
function M.add(a, b)
  return a + b
end

function M.broken(x)
  local y = x +
  return y * )
end

--- Sums a list.
function M.sum(values)
  local total = 0
  for _, v in ipairs(values) do
    total = M.add(total, v)
  end
  return total
end

return M
