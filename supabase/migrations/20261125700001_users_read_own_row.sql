-- Everyone reads their own users row, active or not. The app verifies sessions
-- from the access token's signature (decision 024), and a deactivated user's
-- token verifies until it expires: the app reads this row, sees is_active
-- false and signs them out. Before, the row vanished with is_active (every
-- other policy still asks for an active row) and the app could not tell a
-- deactivated user from one whose row is missing. The row holds nothing the
-- user did not already know: their own name, e-mail, role and status.
drop policy "staff read their account's users, others themselves" on public.users;
create policy "staff read their account's users, everyone themselves" on public.users
  for select to authenticated
  using (auth_user_id = (select auth.uid())
         or (account_id = (select public.current_account_id()) and (select public.is_account_staff())));
