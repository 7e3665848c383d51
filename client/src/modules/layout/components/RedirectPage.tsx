import { Navigate, useLocation, useParams } from 'react-router-dom';

/** /redirect/*: re-enters a path, so choosing the current menu entry reloads its screen. */
export default function RedirectPage() {
  const { '*': rest = '' } = useParams();
  const { search } = useLocation();
  return <Navigate to={`/${rest}${search}`} replace />;
}
