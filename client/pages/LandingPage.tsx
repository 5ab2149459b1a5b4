import { useAuth } from '../auth/AuthProvider';
import { CallToAction } from '../components/landing/CallToAction';
import { Features } from '../components/landing/Features';
import { Hero } from '../components/landing/Hero';
import { Pricing } from '../components/landing/Pricing';
import { Testimonials } from '../components/landing/Testimonials';

export function LandingPage() {
  const { user } = useAuth();
  const dashboard = { to: '/dashboard', label: 'Go to dashboard' };
  return (
    <>
      <Hero cta={user ? dashboard : { to: '/signup', label: 'Get started free' }} />
      <Features />
      <Testimonials />
      <Pricing />
      <CallToAction cta={user ? dashboard : { to: '/signup', label: 'Create your free account' }} />
    </>
  );
}
