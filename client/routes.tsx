import { lazy, Suspense, type ReactNode } from 'react';
import { Navigate, Route, Routes } from 'react-router-dom';
import { GuestRoute } from './auth/GuestRoute';
import { FullPageLoader, ProtectedRoute } from './auth/ProtectedRoute';
import { Layout } from './components/Layout';
import { LandingPage } from './pages/LandingPage';
import { LoginPage } from './pages/LoginPage';
import { SignupPage } from './pages/SignupPage';

/** Screens behind the first visit load on demand; the landing and sign-in screens ship in the main bundle. */
const AdminPage = lazy(() => import('./pages/AdminPage').then((m) => ({ default: m.AdminPage })));
const ApiDocsPage = lazy(() => import('./pages/ApiDocsPage').then((m) => ({ default: m.ApiDocsPage })));
const DashboardPage = lazy(() => import('./pages/DashboardPage').then((m) => ({ default: m.DashboardPage })));
const AdminUserPage = lazy(() => import('./pages/UserPage').then((m) => ({ default: m.AdminUserPage })));
const ProjectUserPage = lazy(() => import('./pages/UserPage').then((m) => ({ default: m.ProjectUserPage })));
const MonitoringPage = lazy(() => import('./pages/MonitoringPage').then((m) => ({ default: m.MonitoringPage })));
const InvitationPage = lazy(() => import('./pages/InvitationPage').then((m) => ({ default: m.InvitationPage })));
const MailPage = lazy(() => import('./pages/MailPage').then((m) => ({ default: m.MailPage })));
const LinkAccountPage = lazy(() => import('./pages/LinkAccountPage').then((m) => ({ default: m.LinkAccountPage })));
const ForgotPasswordPage = lazy(() => import('./pages/ForgotPasswordPage').then((m) => ({ default: m.ForgotPasswordPage })));
const ProfilePage = lazy(() => import('./pages/ProfilePage').then((m) => ({ default: m.ProfilePage })));
const ProjectsPage = lazy(() => import('./pages/ProjectsPage').then((m) => ({ default: m.ProjectsPage })));
const ProjectDetailPage = lazy(() => import('./pages/ProjectDetailPage').then((m) => ({ default: m.ProjectDetailPage })));
const ApiKeysPage = lazy(() => import('./pages/ApiKeysPage').then((m) => ({ default: m.ApiKeysPage })));
const AnalyticsPage = lazy(() => import('./pages/AnalyticsPage').then((m) => ({ default: m.AnalyticsPage })));
const ConfirmEmailChangePage = lazy(() => import('./pages/ConfirmEmailChangePage').then((m) => ({ default: m.ConfirmEmailChangePage })));
const StatusPage = lazy(() => import('./pages/StatusPage').then((m) => ({ default: m.StatusPage })));
const ResetPasswordPage = lazy(() => import('./pages/ResetPasswordPage').then((m) => ({ default: m.ResetPasswordPage })));
const SettingsPage = lazy(() => import('./pages/SettingsPage').then((m) => ({ default: m.SettingsPage })));
const TestVerifyPage = lazy(() => import('./pages/TestVerifyPage').then((m) => ({ default: m.TestVerifyPage })));
const TestSignInPage = lazy(() => import('./pages/TestSignInPage').then((m) => ({ default: m.TestSignInPage })));
const VerifyEmailPage = lazy(() => import('./pages/VerifyEmailPage').then((m) => ({ default: m.VerifyEmailPage })));
/** A project's hosted sign-in pages: their own frame and realm, outside the platform's layout. */
const HostedApp = lazy(() => import('./hosted/HostedApp').then((m) => ({ default: m.HostedApp })));
/** The self-serve setup portal of enterprise SSO: an IT admin with a one-time link, no account and no dashboard frame. */
const PortalApp = lazy(() => import('./portal/PortalApp').then((m) => ({ default: m.PortalApp })));

const guarded = (page: ReactNode) => <ProtectedRoute>{page}</ProtectedRoute>;
const guestOnly = (page: ReactNode) => <GuestRoute>{page}</GuestRoute>;

/** The route table of the specification. /health and /ready are served by the server; /status shows them in words. */
export function AppRoutes() {
  return (
    <Routes>
      <Route
        path="/hosted/:projectKey/*"
        element={
          <Suspense fallback={<FullPageLoader />}>
            <HostedApp />
          </Suspense>
        }
      />
      <Route
        path="/portal/*"
        element={
          <Suspense fallback={<FullPageLoader />}>
            <PortalApp />
          </Suspense>
        }
      />
      <Route element={<Layout />}>
        <Route path="/" element={<LandingPage />} />
        <Route path="/status" element={<StatusPage />} />
        <Route path="/login" element={guestOnly(<LoginPage />)} />
        <Route path="/signup" element={guestOnly(<SignupPage />)} />
        <Route path="/forgot-password" element={<ForgotPasswordPage />} />
        <Route path="/reset-password" element={<ResetPasswordPage />} />
        <Route path="/verify-email" element={<VerifyEmailPage />} />
        <Route path="/confirm-email-change" element={<ConfirmEmailChangePage />} />
        <Route path="/link-account" element={<LinkAccountPage />} />
        <Route path="/invitations" element={<InvitationPage />} />
        <Route path="/test-verify" element={<TestVerifyPage />} />
        <Route path="/api-docs" element={<ApiDocsPage />} />
        {/* Public: a developer who just signed up is not signed in yet; the server decides who may read it. */}
        <Route path="/mail" element={<MailPage />} />
        <Route path="/dashboard" element={guarded(<DashboardPage />)} />
        <Route path="/projects" element={guarded(<ProjectsPage />)} />
        {/* Overview at /projects/:projectId, settings at /projects/:projectId/settings/:section. */}
        <Route path="/projects/:projectId/*" element={guarded(<ProjectDetailPage />)} />
        <Route path="/admin" element={guarded(<AdminPage />)} />
        <Route path="/admin/users/:userId" element={guarded(<AdminUserPage />)} />
        <Route path="/monitoring" element={guarded(<MonitoringPage />)} />
        <Route path="/monitoring/users/:userId" element={guarded(<ProjectUserPage />)} />
        <Route path="/api-keys" element={guarded(<ApiKeysPage />)} />
        <Route path="/analytics" element={guarded(<AnalyticsPage />)} />
        <Route path="/profile" element={guarded(<ProfilePage />)} />
        <Route path="/settings" element={guarded(<SettingsPage />)} />
        <Route path="/test-sign-in/callback" element={guarded(<TestSignInPage />)} />
        <Route path="*" element={<Navigate to="/" replace />} />
      </Route>
    </Routes>
  );
}
