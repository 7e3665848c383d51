-- The wall screen's role (issue 22, role value WALL) shows the check-in duty board too (issue 32):
-- it gets the menu carrying checkin:view (read-only) in every estate that has one. New estates get
-- it from the demo seed (seed-wall.ts); ensureMenus creates the menu on a database's first start.
INSERT INTO sys_role_menu (role_id, menu_id)
SELECT r.id, m.id
FROM sys_role r
JOIN sys_menu m ON m.perms = 'checkin:view'
WHERE r.role_value = 'WALL'
ON CONFLICT DO NOTHING;
